// Lints a config before its tests run, as the reference does: a lint fails the target even when
// every case passes. Environment variables are not checked (each case may set its own).
import { readFile } from 'node:fs/promises';
import { interpolateEnv } from '../../config/env_interpolation.js';
import { formatApiLint } from '../../config/lint.js';
import { lintServiceConfig } from '../../config/lint_config.js';
import { lintDisabled } from '../../config/loader.js';
import { PositionedConfigError } from '../../config/positioned_error.js';
import { schemaProvider } from '../../config/schema.js';
import { parseYaml } from '../../config/yaml_document.js';
import { errorMessage } from '../../engine/errors.js';
import type { Registry } from '../../engine/registry.js';
import { processRegistry } from '../../plugins/process_registry.js';

/** `(line,col) message` per problem; a file that cannot be read or parsed is one problem. */
export async function lintTarget(path: string, registry: Registry = processRegistry()): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    return [`(1,1) failed to read config file: ${errorMessage(err)}`];
  }
  if (lintDisabled(text)) return [];
  const interpolated = interpolateEnv(text, (name) => process.env[name]);
  if (interpolated.errors.length > 0) {
    return [`(${interpolated.firstErrorLine},1) ${interpolated.errors.join('; ')}`];
  }
  try {
    const parsed = parseYaml(interpolated.text, path);
    return lintServiceConfig(parsed, { provider: schemaProvider(registry) }).map(formatApiLint);
  } catch (err) {
    if (err instanceof PositionedConfigError) return err.problems.map(formatApiLint);
    return [`(1,1) ${errorMessage(err)}`];
  }
}
