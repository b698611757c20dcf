// Loads the service config for `nekton -c`/`run`: the main file and `-r` resource files, the lint
// gate, one-line errors, timing fields.
import { dirname, resolve } from 'node:path';
import { loadConfigFile } from '../config/loader.js';
import { schemaProvider } from '../config/schema.js';
import { scrubServiceConfig } from '../config/scrub.js';
import { loadTemplates } from '../templates/load_templates.js';
import { type ConfigSource, rootDurationMs } from './config_source.js';
import type { GlobalOptions } from './main.js';
import { loadResourceFiles } from './resource_files.js';
import type { LoadedService } from './service.js';

/** Returns the loaded service, or undefined after printing why it cannot run. */
export async function loadService(file: string, options: GlobalOptions): Promise<LoadedService | undefined> {
  const templates = await loadTemplates(options.templates ?? []);
  const { registry } = templates;
  const provider = schemaProvider(registry);
  const loaded = await loadConfigFile(file, { provider, sets: options.set, envFiles: options.envFile });
  const resourceFiles = await loadResourceFiles(options.resources, { provider, envFiles: options.envFile });
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
