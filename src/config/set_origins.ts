// Values that `--set` put into a document have no place in the file. Errors about them name the
// `--set` instead of line 1, so `-s logger.level=bogus` says which field was wrong.
import { isNode, visit } from 'yaml';

const origins = new WeakMap<object, string>();

/** Marks `node` and everything inside it as written by `--set <expression>`. */
export function markSetOrigin(node: unknown, expression: string): void {
  if (!isNode(node)) return;
  origins.set(node, `--set ${expression}`);
  visit(node, (_key, inner) => {
    if (isNode(inner)) origins.set(inner, `--set ${expression}`);
  });
}

/** `--set a.b=c` when `node` came from that `--set`. */
export function setOriginOf(node: unknown): string | undefined {
  return typeof node === 'object' && node !== null ? origins.get(node) : undefined;
}
