// `nekton lint PATH...`: prints `FILE(line,col) message` per problem; exit 1 if any file has one.
// PATH is a file, a glob, a directory or `dir/...` (see lint_targets.ts).
import { registry } from '../components/registry.js';
import { loadConfigFile } from '../config/loader.js';
import { schemaProvider } from '../config/schema.js';
import { ConfigError } from '../engine/errors.js';
import { httpConfigProblem } from '../http/config.js';
import { lintTargets } from './lint_targets.js';
import type { GlobalOptions } from './main.js';

export async function lintFiles(args: string[], options: GlobalOptions): Promise<number> {
  const provider = schemaProvider(registry);
  let problems = 0;
  const report = (err: unknown) => {
    if (!(err instanceof ConfigError)) throw err;
    process.stdout.write(`${err.message}\n`);
    problems++;
  };
  for (const arg of args) {
    let files: string[];
    try {
      files = await lintTargets(arg);
    } catch (err) {
      report(err);
      continue;
    }
    for (const file of files) {
      try {
        const loaded = await loadConfigFile(file, { provider, sets: options.set, envFiles: options.envFile });
        for (const lint of loaded.lints) process.stdout.write(`${lint}\n`);
        problems += loaded.lints.length;
        // What would stop the HTTP server at start (a password_hash that can never match...).
        const httpProblem = httpConfigProblem(loaded.config.http);
        if (httpProblem) report(new ConfigError(`${file}: http: ${httpProblem}`));
      } catch (err) {
        report(err);
      }
    }
  }
  return problems > 0 ? 1 : 0;
}
