// `--set path=value` overrides applied to the parsed document before lint, so every other line
// keeps its position. Dot paths; a numeric segment indexes an array; the value reads as YAML.
import { isMap, isNode, isScalar, isSeq, type Node, parse } from 'yaml';
import { ConfigError } from '../engine/errors.js';
import { goYamlTags } from './go_yaml.js';
import { markSetOrigin } from './set_origins.js';
import type { ParsedYaml } from './yaml_document.js';

export interface SetOverride {
  path: string[];
  value: unknown;
  /** As given: `a.b=c`. */
  expression: string;
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
      // As go-yaml reads a value (`--set a.count=30_000_000` is an int).
      value = parse(text, { customTags: goYamlTags });
    } catch {
      value = text;
    }
  }
  return { path, value, expression };
}

export function applySetOverrides(parsed: ParsedYaml, overrides: readonly SetOverride[]): void {
  for (const { path, value, expression } of overrides) {
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
    const node = parsed.doc.createNode(value);
    markSetOrigin(node, expression);
    parsed.doc.setIn(keys, node);
    markCreatedKeys(parsed, keys, expression);
  }
}

/** Keys (and maps) that setIn created along the path are the `--set`'s too, not line 1's. */
function markCreatedKeys(parsed: ParsedYaml, keys: readonly (string | number)[], expression: string): void {
  let parent: unknown = parsed.doc.contents;
  for (const key of keys) {
    if (!isMap(parent)) return;
    const pair = parent.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === key);
    if (!pair) return;
    if (!isNode(pair.key)) pair.key = parsed.doc.createNode(pair.key);
    if (!(pair.key as Node).range) markSetOrigin(pair.key, expression);
    if (isNode(pair.value) && !pair.value.range) markSetOrigin(pair.value, expression);
    parent = pair.value;
  }
}
