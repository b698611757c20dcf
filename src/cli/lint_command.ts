// `nekton lint FILE...`: prints `FILE(line,col) message` per problem; exit 1 if any file has one.
import { registry } from '../components/registry.js';
import { loadConfigFile } from '../config/loader.js';
import { schemaProvider } from '../config/schema.js';
import { ConfigError } from '../engine/errors.js';
import type { GlobalOptions } from './main.js';

export async function lintFiles(files: string[], options: GlobalOptions): Promise<number> {
  const provider = schemaProvider(registry);
  let problems = 0;
  for (const file of files) {
    try {
      const loaded = await loadConfigFile(file, { provider, sets: options.set, envFiles: options.envFile });
      for (const lint of loaded.lints) process.stdout.write(`${lint}\n`);
      problems += loaded.lints.length;
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      process.stdout.write(`${err.message}\n`);
      problems++;
    }
  }
  return problems > 0 ? 1 : 0;
}
