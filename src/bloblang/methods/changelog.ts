// `diff` and `patch` (the reference's changelog plugin, built on r3labs/diff): a changelog is an
// array of {Type: create|update|delete, Path: [keys], From, To}, sorted by the dotted path.
// Objects are compared key by key and arrays without regard to order (an element found in the
// other array is unchanged); a value created or deleted is one change with the whole value.
import { JsonNumber, Timestamp, type Value } from '../library.js';
import { deepEqual, isObject, type ValueObject, valueToString } from '../value.js';
import { fail, method, p } from './support.js';

interface Change {
  Type: 'create' | 'update' | 'delete';
  Path: string[];
  From: Value;
  To: Value;
}

type Kind = 'object' | 'array' | 'string' | 'number' | 'bool' | 'bytes' | 'timestamp';

function kindOf(v: Value): Kind | 'null' {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (v instanceof Uint8Array) return 'bytes';
  if (v instanceof Timestamp) return 'timestamp';
  if (v instanceof JsonNumber || typeof v === 'number' || typeof v === 'bigint') return 'number';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  return 'object';
}

const MISSING = Symbol('missing');
type Slot = Value | typeof MISSING;

function diffValues(path: string[], a: Slot, b: Slot, out: Change[]): void {
  if (a === MISSING && b === MISSING) return;
  if (a === MISSING || b === MISSING) {
    const whole = (a === MISSING ? b : a) as Value;
    const type = a === MISSING ? 'create' : 'delete';
    // Only at the top (`{...}.diff(null)`) is an object listed key by key (r3labs' mapValues);
    // below it, a created or deleted value is one change, whatever it holds.
    if (path.length === 0 && isObject(whole) && Object.keys(whole).length > 0) {
      for (const k of Object.keys(whole))
        diffValues(
          [...path, k],
          type === 'create' ? MISSING : whole[k]!,
          type === 'create' ? whole[k]! : MISSING,
          out,
        );
      return;
    }
    out.push({
      Type: type,
      Path: path,
      From: type === 'delete' ? whole : null,
      To: type === 'create' ? whole : null,
    });
    return;
  }
  if (a === null || b === null) {
    if (a !== b) out.push({ Type: 'update', Path: path, From: a, To: b });
    return;
  }
  const ka = kindOf(a);
  if (ka !== kindOf(b)) throw fail('types do not match');
  if (ka === 'object') {
    const ao = a as ValueObject;
    const bo = b as ValueObject;
    for (const k of Object.keys(ao))
      diffValues([...path, k], ao[k]!, Object.hasOwn(bo, k) ? bo[k]! : MISSING, out);
    for (const k of Object.keys(bo))
      if (!Object.hasOwn(ao, k)) diffValues([...path, k], MISSING, bo[k]!, out);
    return;
  }
  if (ka === 'array') {
    diffArrays(path, a as Value[], b as Value[], out);
    return;
  }
  if (!deepEqual(a, b)) out.push({ Type: 'update', Path: path, From: a, To: b });
}

/** Elements of one array with no equal (unused) element in the other, compared index by index. */
function diffArrays(path: string[], a: Value[], b: Value[], out: Change[]): void {
  const unmatched = (from: Value[], other: Value[]): Map<number, Value> => {
    const used = new Array<boolean>(other.length).fill(false);
    const missing = new Map<number, Value>();
    from.forEach((v, i) => {
      const at = other.findIndex((o, j) => !used[j] && deepEqual(o, v));
      if (at >= 0) used[at] = true;
      else missing.set(i, v);
    });
    return missing;
  };
  const inA = unmatched(a, b);
  const inB = unmatched(b, a);
  const indexes = [...new Set([...inA.keys(), ...inB.keys()])];
  for (const i of indexes) {
    diffValues(
      [...path, String(i)],
      inA.has(i) ? inA.get(i)! : MISSING,
      inB.has(i) ? inB.get(i)! : MISSING,
      out,
    );
  }
}

method('diff', [p.any('other')], (target, args) => {
  if (target === null) return null;
  const changes: Change[] = [];
  const other = (args[0] ?? null) as Value;
  // A null to compare with is no value at all: the target is deleted.
  diffValues([], target, other === null ? MISSING : other, changes);
  const key = (c: Change) => c.Path.join('.');
  changes.sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0));
  return changes.map((c) => ({ From: c.From, Path: c.Path, To: c.To, Type: c.Type }));
});

// ---------------------------------------------------------------------------
// patch

/** A field of a change, matched case-insensitively as mapstructure does. */
function field(change: ValueObject, name: string): Value | undefined {
  const key = Object.keys(change).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : change[key];
}

function readChangelog(v: Value): Change[] {
  if (!Array.isArray(v)) throw fail(`'' expected a map or struct list, got '${kindOf(v)}'`);
  return v.map((c, i) => {
    if (!isObject(c)) throw fail(`'[${i}]' expected a map, got '${kindOf(c)}'`);
    const type = field(c, 'Type');
    const path = field(c, 'Path') ?? [];
    if (type !== 'create' && type !== 'update' && type !== 'delete')
      throw fail(`'[${i}].Type' unknown change type: ${type === undefined ? '' : valueToString(type)}`);
    if (!Array.isArray(path)) throw fail(`'[${i}].Path' expected a list of keys, got '${kindOf(path)}'`);
    return {
      Type: type,
      Path: path.map((s) => valueToString(s)),
      From: field(c, 'From') ?? null,
      To: field(c, 'To') ?? null,
    };
  });
}

function applyChange(root: Value, path: readonly string[], change: Change): Value {
  if (path.length === 0) return change.Type === 'delete' ? null : change.To;
  const [head, ...rest] = path as [string, ...string[]];
  if (Array.isArray(root)) {
    const i = Number(head);
    if (!Number.isInteger(i) || i < 0) throw fail(`invalid array index: ${head}`);
    const out = root.slice();
    if (rest.length === 0 && change.Type === 'delete') {
      if (i < out.length) out.splice(i, 1);
      return out;
    }
    while (out.length <= i) out.push(null);
    out[i] = applyChange(out[i] ?? null, rest, change);
    return out;
  }
  const out: ValueObject = isObject(root) ? { ...root } : {};
  if (rest.length === 0 && change.Type === 'delete') {
    delete out[head];
    return out;
  }
  out[head] = applyChange(Object.hasOwn(out, head) ? out[head]! : null, rest, change);
  return out;
}

method('patch', [p.any('changelog')], (target, args) => {
  const changes = readChangelog((args[0] ?? null) as Value);
  if (target === null) return null;
  let out: Value = target;
  for (const change of changes) out = applyChange(out, change.Path, change);
  return out;
});
