// `--set path=value` overrides applied to the parsed document before lint, so every other line
// keeps its position. Dot paths; a numeric segment indexes an array; the value reads as YAML.
import { isMap, isSeq, parse } from 'yaml';
import { ConfigError } from '../engine/errors.js';
import type { ParsedYaml } from './yaml_document.js';

export interface SetOverride {
  path: string[];
  value: unknown;
}

/** Parses `a.b.0.c=value`. */
export function parseSetOverride(expression: string): SetOverride {
  const eq = expression.indexOf('=');
  if (eq <= 0) throw new ConfigError(`invalid --set '${expression}': expected <path>=<value>`);
  const path = expression.slice(0, eq).split('.');
  if (path.some((segment) => segment === '')) {
    throw new ConfigError(`invalid --set '${expression}': empty path segment`);
  }
  const text = expression.slice(eq + 1);
  let value: unknown = '';
  if (text !== '') {
    try {
      value = parse(text);
    } catch {
      value = text;
    }
  }
  return { path, value };
}

export function applySetOverrides(parsed: ParsedYaml, overrides: readonly SetOverride[]): void {
  for (const { path, value } of overrides) {
    const keys: (string | number)[] = [];
    for (const segment of path) {
      const parent = keys.length === 0 ? parsed.doc.contents : parsed.doc.getIn(keys, true);
      keys.push(isSeq(parent) && /^\d+$/.test(segment) ? Number(segment) : segment);
      if (parent !== null && parent !== undefined && !isMap(parent) && !isSeq(parent) && keys.length > 1) {
        throw new ConfigError(
          `invalid --set '${path.join('.')}': ${keys.slice(0, -1).join('.')} is not an object`,
        );
      }
    }
    parsed.doc.setIn(keys, parsed.doc.createNode(value));
  }
}
