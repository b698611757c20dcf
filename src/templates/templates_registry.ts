// The registry of a run given `-t` globs: template lints are printed to stderr and, unless
// `--chilled`, stop the run, as the reference does before it reads the config.
import { ConfigError } from '../engine/errors.js';
import type { Registry } from '../engine/registry.js';
import { loadTemplates } from './load_templates.js';

/** Undefined when no template was given (the built-ins serve); throws ConfigError to stop the run. */
export async function templatesRegistry(
  patterns: readonly string[],
  chilled: boolean,
): Promise<Registry | undefined> {
  if (patterns.length === 0) return undefined;
  const loaded = await loadTemplates(patterns);
  if (loaded.lints.length > 0) {
    process.stderr.write(`${loaded.lints.join('\n')}\n`);
    if (!chilled)
      throw new ConfigError(
        'shutting down due to linter errors in templates, to ignore them run with --chilled',
      );
  }
  return loaded.registry;
}
