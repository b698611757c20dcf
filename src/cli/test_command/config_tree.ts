// Paths into a config as plain values: JSON pointers (`/pipeline/processors/0`), replacing the
// value at one (how a test mocks a component), and the path of every labelled component.
import { isPlainObject } from '../../config/normalise.js';

export type TreePath = string[];

/** `/a/b~1c/0` -> ['a', 'b/c', '0'] (RFC 6901 escapes); '' is the whole document. */
export function parsePointer(pointer: string): TreePath {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`'${pointer}' is not a JSON pointer: it must start with '/'`);
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
}

export function describePath(path: TreePath): string {
  return `/${path.join('/')}`;
}

/** The value at `path`; an Error naming the first segment that leads nowhere. */
export function valueAt(root: unknown, path: TreePath): unknown {
  let node = root;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i]!;
    const next = child(node, segment);
    if (next === undefined) {
      throw new Error(`nothing at ${describePath(path.slice(0, i + 1))}`);
    }
    node = next;
  }
  return node;
}

function child(node: unknown, segment: string): unknown {
  if (Array.isArray(node)) {
    if (!/^\d+$/.test(segment)) return undefined;
    return node[Number(segment)];
  }
  if (isPlainObject(node)) return Object.hasOwn(node, segment) ? node[segment] : undefined;
  return undefined;
}

/**
 * Sets the value at `path` in place: an array index replaces (`-` appends, as in a JSON Patch),
 * an object key is replaced or added. The parent must exist.
 */
export function setValueAt(root: unknown, path: TreePath, value: unknown): void {
  if (path.length === 0) throw new Error('cannot replace the whole config');
  const parent = valueAt(root, path.slice(0, -1));
  const last = path[path.length - 1]!;
  if (Array.isArray(parent)) {
    if (last === '-') {
      parent.push(value);
      return;
    }
    const index = /^\d+$/.test(last) ? Number(last) : -1;
    if (index < 0 || index > parent.length) {
      throw new Error(`${describePath(path)}: index out of range (the array has ${parent.length} items)`);
    }
    parent[index] = value;
    return;
  }
  if (isPlainObject(parent)) {
    parent[last] = value;
    return;
  }
  throw new Error(`${describePath(path.slice(0, -1))} is neither an object nor an array`);
}

/** Every object with a string `label` (a labelled component), outside the `tests` section. */
export function labelledPaths(root: unknown): Map<string, TreePath> {
  const found = new Map<string, TreePath>();
  const visit = (node: unknown, path: TreePath) => {
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) visit(item, [...path, String(i)]);
      return;
    }
    if (!isPlainObject(node)) return;
    const label = node.label;
    if (typeof label === 'string' && label !== '' && !found.has(label)) found.set(label, path);
    for (const [key, value] of Object.entries(node)) {
      if (path.length === 0 && key === 'tests') continue;
      visit(value, [...path, key]);
    }
  };
  visit(root, []);
  return found;
}
