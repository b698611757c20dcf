// Loads the service config for `nekton -c`/`run`: the main file and `-r` resource files, the lint
// gate, one-line errors, timing fields.
import { dirname, resolve } from 'node:path';
import { loadConfigFilePlugins } from '../api/plugin_loading.js';
import { type ConfigSource, rootDurationMs } from '../config/config_source.js';
import { loadConfigFile } from '../config/loader.js';
import { schemaProvider } from '../config/schema.js';
import { scrubServiceConfig } from '../config/scrub.js';
import { redpandaConnected, type ServiceConfig } from '../config/service_config.js';
import type { Registry } from '../engine/registry.js';
import { loadResourceFiles, type ResourceFile } from '../service/resource_files.js';
import { loadTemplates } from '../templates/load_templates.js';
import type { GlobalOptions } from './main.js';

export interface LoadedService {
  config: ServiceConfig;
  /** The main config file, for errors found while building its components. */
  source: ConfigSource;
  /** `-r` files: their resources are built after the main file's. */
  resourceFiles: ResourceFile[];
  /** The config with secrets scrubbed, for the debug endpoints. */
  sanitised: unknown;
  /** Directory of the config file: relative imports resolve against it. */
  baseDir: string;
  shutdownTimeoutMs: number;
  shutdownDelayMs: number;
  /** `--log.level` override. */
  logLevel?: string;
  /** The built-ins plus `-t` templates; absent means the built-ins. */
  registry?: Registry;
}

/** Returns the loaded service, or undefined after printing why it cannot run. */
export async function loadService(file: string, options: GlobalOptions): Promise<LoadedService | undefined> {
  await loadConfigFilePlugins(file);
  const templates = await loadTemplates(options.templates ?? []);
  const { registry } = templates;
  const provider = schemaProvider(registry);
  const loaded = await loadConfigFile(file, { provider, sets: options.set, envFiles: options.envFile });
  // A resource file's redpanda_common connects with the main config's section.
  const resourceFiles = await loadResourceFiles(options.resources, {
    provider,
    envFiles: options.envFile,
    redpandaSection: loaded.config ? redpandaConnected(loaded.config.redpanda) : undefined,
  });
  const lints = [...templates.lints, ...loaded.lints, ...resourceFiles.flatMap((f) => f.lints)];
  if (lints.length > 0) {
    process.stderr.write(`${lints.join('\n')}\n`);
    if (!options.chilled) {
      process.stderr.write('shutting down due to linter errors, to ignore them run with --chilled\n');
      return undefined;
    }
  }
  const config = loaded.config;
  const source: ConfigSource = { file, lines: loaded.lines };
  return {
    config,
    source,
    resourceFiles,
    sanitised: scrubServiceConfig(loaded.posted, provider),
    baseDir: dirname(resolve(file)),
    shutdownTimeoutMs: rootDurationMs(source, config.shutdown_timeout, 'shutdown_timeout'),
    shutdownDelayMs: rootDurationMs(source, config.shutdown_delay, 'shutdown_delay'),
    logLevel: options.logLevel,
    registry,
  };
}
