// Loads the service config for `nekton -c`/`run`: lint gate, one-line errors, timing fields.
import { dirname, resolve } from 'node:path';
import { registry } from '../components/registry.js';
import { parseDurationMs } from '../config/duration.js';
import { loadConfigFile } from '../config/loader.js';
import { schemaProvider } from '../config/schema.js';
import { scrubServiceConfig } from '../config/scrub.js';
import type { GlobalOptions } from './main.js';
import type { LoadedService } from './service.js';

/** Returns the loaded service, or undefined after printing why it cannot run. */
export async function loadService(file: string, options: GlobalOptions): Promise<LoadedService | undefined> {
  const provider = schemaProvider(registry);
  const loaded = await loadConfigFile(file, { provider, sets: options.set, envFiles: options.envFile });
  if (loaded.lints.length > 0) {
    process.stderr.write(`${loaded.lints.join('\n')}\n`);
    if (!options.chilled) {
      process.stderr.write('shutting down due to linter errors, to ignore them run with --chilled\n');
      return undefined;
    }
  }
  const config = loaded.config;
  return {
    config,
    sanitised: scrubServiceConfig(loaded.raw, provider),
    baseDir: dirname(resolve(file)),
    shutdownTimeoutMs: parseDurationMs(config.shutdown_timeout),
    shutdownDelayMs: parseDurationMs(config.shutdown_delay),
    logLevel: options.logLevel,
  };
}
