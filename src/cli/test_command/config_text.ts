// A config file as plain values with a test case's environment applied to its `${VAR}`s
// (missing variables become "", as the reference's test runner reads them), plus line positions.
import { readFile } from 'node:fs/promises';
import { envLookup, interpolateEnv } from '../../config/env_interpolation.js';
import { PositionedConfigError } from '../../config/positioned_error.js';
import { buildLineIndex, type LineIndex, parseYaml, yamlToValue } from '../../config/yaml_document.js';
import { errorMessage } from '../../engine/errors.js';

export interface ConfigTree {
  value: unknown;
  lines: LineIndex;
}

export async function readConfigTree(
  path: string,
  environment: Record<string, string> = {},
): Promise<ConfigTree> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new Error(`failed to read config file '${path}': ${errorMessage(err)}`);
  }
  const fromProcess = envLookup(process.env);
  const interpolated = interpolateEnv(text, (name) =>
    Object.hasOwn(environment, name) ? environment[name] : fromProcess(name),
  );
  if (interpolated.errors.length > 0) {
    throw new Error(`failed to parse config file '${path}': ${interpolated.errors.join('; ')}`);
  }
  try {
    const parsed = parseYaml(interpolated.text, path);
    return { value: yamlToValue(parsed), lines: buildLineIndex(parsed) };
  } catch (err) {
    const message = err instanceof PositionedConfigError ? err.inFile(path).message : errorMessage(err);
    throw new Error(`failed to parse config file '${path}': ${message}`);
  }
}
