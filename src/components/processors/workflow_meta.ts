// The structured record a `workflow` keeps in each message at `meta_path`: which branches
// succeeded, were skipped or failed, read back on replay to skip the branches already done.
import type { Message } from '../../message/message.js';

type PlainObject = Record<string, unknown>;

function isPlainObject(v: unknown): v is PlainObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
}

/** A dot path as the reference splits it: `~1` stands for a dot and `~0` for a tilde. */
export function dotPath(text: string): string[] {
  if (text === '') return [];
  return text.split('.').map((s) => s.replaceAll('~1', '.').replaceAll('~0', '~'));
}

/** One message's outcome per branch; every branch of the stages starts as succeeded. */
export class BranchRecord {
  private readonly succeeded: Set<string>;
  private readonly skipped = new Set<string>();
  readonly failed = new Map<string, string>();

  constructor(stages: readonly (readonly string[])[]) {
    this.succeeded = new Set(stages.flat());
  }

  markSkipped(id: string): void {
    this.succeeded.delete(id);
    this.skipped.add(id);
  }

  fail(id: string, why: string): void {
    this.succeeded.delete(id);
    this.skipped.delete(id);
    this.failed.set(id, why);
  }

  /** The record as written into the message (keys in the reference's sorted order, empty lists left out). */
  toObject(): PlainObject {
    const out: PlainObject = {};
    if (this.failed.size > 0) {
      const failed: PlainObject = {};
      for (const id of [...this.failed.keys()].sort()) failed[id] = this.failed.get(id);
      out.failed = failed;
    }
    if (this.skipped.size > 0) out.skipped = [...this.skipped].sort();
    if (this.succeeded.size > 0) out.succeeded = [...this.succeeded].sort();
    return out;
  }
}

function at(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (!isPlainObject(node)) return undefined;
    node = node[key];
  }
  return node;
}

function stringsAt(record: unknown, key: string): string[] | null {
  const list = isPlainObject(record) ? record[key] : undefined;
  return Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string') : null;
}

/**
 * The branches a message's earlier record says to skip: those skipped or succeeded before, and,
 * when the record has a non-empty `apply` list, every branch not in it.
 */
export function skipsFromRecord(
  msg: Message,
  metaPath: readonly string[],
  stages: ReadonlySet<string>,
): Set<string> {
  const skip = new Set<string>();
  if (metaPath.length === 0) return skip;
  let record: unknown;
  try {
    record = at(msg.structured(), metaPath);
  } catch {
    return skip; // not JSON: nothing recorded
  }
  for (const id of stringsAt(record, 'skipped') ?? []) if (stages.has(id)) skip.add(id);
  const apply = isPlainObject(record) ? record.apply : undefined;
  if (Array.isArray(apply) && apply.length > 0) {
    for (const id of stages) skip.add(id);
    for (const id of apply) if (typeof id === 'string') skip.delete(id);
  }
  for (const id of stringsAt(record, 'succeeded') ?? []) if (stages.has(id)) skip.add(id);
  return skip;
}

/**
 * A copy of msg with `record` at metaPath (the earlier record kept under `previous`). Throws when
 * the message is not JSON; a document that is not an object (or has a non-object on the path) is
 * left as it was, as in the reference.
 */
export function withRecord(msg: Message, metaPath: readonly string[], record: PlainObject): Message {
  const root = msg.structured();
  const previous = at(root, metaPath);
  if (previous === undefined || previous === null) return setAt(msg, root, metaPath, record);
  // Keys stay sorted as the reference writes them: failed, previous, skipped, succeeded.
  const withPrevious: PlainObject = { ...record, previous };
  const sorted: PlainObject = {};
  for (const key of Object.keys(withPrevious).sort()) sorted[key] = withPrevious[key];
  return setAt(msg, root, metaPath, sorted);
}

function setAt(msg: Message, root: unknown, path: readonly string[], value: unknown): Message {
  const top = root === null ? {} : root;
  if (!isPlainObject(top)) return msg;
  // Copy each object on the way down: the parsed document may be shared with other messages.
  const newRoot: PlainObject = { ...top };
  let node = newRoot;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i]!;
    const next = node[key];
    if (next === undefined || next === null) node[key] = {};
    else if (isPlainObject(next)) node[key] = { ...next };
    else return msg;
    node = node[key] as PlainObject;
  }
  node[path[path.length - 1]!] = value;
  const out = msg.copy();
  out.setStructured(newRoot);
  return out;
}
