// `nekton lint PATH...`: prints `FILE(line,col) message` per problem; exit 1 if any file has one.
// PATH is a file, a glob, a directory or `dir/...` (see lint_targets.ts). The reference's flags:
// --deprecated, --labels, --skip-env-var-check, --verbose (`FILE: OK|FAILED` per file first).

import { loadConfigFile } from '../config/loader.js';
import { schemaProvider } from '../config/schema.js';
import { ConfigError } from '../engine/errors.js';
import { httpConfigProblem } from '../http/config.js';
import { processRegistry } from '../plugins/process_registry.js';
import { lintTargets } from './lint_targets.js';
import type { GlobalOptions } from './main.js';

export interface LintFlags {
  deprecated?: boolean;
  labels?: boolean;
  skipEnvVarCheck?: boolean;
  verbose?: boolean;
}

export async function lintFiles(
  args: string[],
  options: GlobalOptions,
  flags: LintFlags = {},
): Promise<number> {
  const provider = schemaProvider(processRegistry());
  const problems: string[] = [];
  const verdicts: string[] = [];
  const report = (err: unknown): string[] => {
    if (!(err instanceof ConfigError)) throw err;
    return [err.message];
  };
  for (const arg of args) {
    let files: string[];
    try {
      files = await lintTargets(arg);
    } catch (err) {
      problems.push(...report(err));
      continue;
    }
    for (const file of files) {
      let found: string[];
      try {
        const loaded = await loadConfigFile(file, {
          provider,
          sets: options.set,
          envFiles: options.envFile,
          skipEnvVarCheck: flags.skipEnvVarCheck,
          rejectDeprecated: flags.deprecated,
          requireLabels: flags.labels,
        });
        found = [...loaded.lints];
        // What would stop the HTTP server at start (a password_hash that can never match...).
        const httpProblem = httpConfigProblem(loaded.config.http);
        if (httpProblem) found.push(`${file}: http: ${httpProblem}`);
      } catch (err) {
        found = report(err);
      }
      problems.push(...found);
      verdicts.push(`${file}: ${found.length > 0 ? 'FAILED' : 'OK'}`);
    }
  }
  const lines = [...(flags.verbose ? verdicts : []), ...problems];
  if (lines.length > 0) process.stdout.write(`${lines.join('\n')}\n`);
  return problems.length > 0 ? 1 : 0;
}
