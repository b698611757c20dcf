// One file (over 400 lines): the value rules (equality, ordering, coercion) call each other and are read as one set.
// General value utilities shared by the Bloblang compiler and its function/method catalogue:
// type names, equality, ordering, numeric coercion and `.string()` rules. The value model and its
// Go-style JSON output live below, in message/ (value.ts, json_writer.ts), and are re-exported here.
import { indentedJson, toJson } from '../message/json_writer.js';
import {
  BloblangError,
  JsonNumber,
  MAX_DEPTH,
  RECURSION_DEPTH,
  Timestamp,
  type Value,
  type ValueObject,
} from '../message/value.js';
import { formatNumber, formatTimestamp } from '../message/value_format.js';
import { DELETED, NOTHING } from './library.js';
import { checkSize, MAX_GENERATED_LENGTH } from './limits.js';

export { toJson, UnserialisableValueError, unserialisableReason } from '../message/json_writer.js';
export {
  formatNumber,
  formatTimestamp,
  type WallClock,
  wallClock,
  zoneOffsetMinutes,
} from '../message/value_format.js';
export { BloblangError, DELETED, JsonNumber, MAX_DEPTH, NOTHING, Timestamp, type Value, type ValueObject };

/** Indented JSON (`format_json`), same rules as toJson; the text may grow to MAX_GENERATED_LENGTH. */
export function toJsonIndented(v: unknown, indent = '    '): string {
  return indentedJson(v, indent, (length) => checkSize('format_json', length, MAX_GENERATED_LENGTH));
}

/** What an expression can evaluate to: a value or one of the two sentinels. */
export type Result = Value | typeof DELETED | typeof NOTHING;

const INT64_MAX = 9223372036854775807n;
const INT64_MIN = -9223372036854775808n;

export function isObject(v: unknown): v is ValueObject {
  if (typeof v !== 'object' || v === null) return false;
  // Parsed and mapped objects are plain: one comparison instead of four type tests.
  if ((v as { constructor?: unknown }).constructor === Object) return true;
  return (
    !Array.isArray(v) && !(v instanceof Uint8Array) && !(v instanceof Timestamp) && !(v instanceof JsonNumber)
  );
}

export function isNumber(v: unknown): v is number | bigint {
  return typeof v === 'number' || typeof v === 'bigint';
}

/** True for a number holding an integer (bigint always is). */
export function isInteger(v: unknown): v is number | bigint {
  return typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v));
}

export function isDeleted(v: unknown): v is typeof DELETED {
  return v === DELETED;
}

export function isNothing(v: unknown): v is typeof NOTHING {
  return v === NOTHING;
}

/** The type name as Bloblang's `type()` reports it. */
export function typeName(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'number':
    case 'bigint':
      return 'number';
    case 'boolean':
      return 'bool';
    case 'symbol':
      return v === DELETED ? 'delete' : 'nothing';
  }
  if (Array.isArray(v)) return 'array';
  if (v instanceof Uint8Array) return 'bytes';
  if (v instanceof Timestamp) return 'timestamp';
  if (v instanceof JsonNumber) return 'number';
  return 'object';
}

/** Brings a bigint back to a plain number when that is exact. */
export function normaliseInt(b: bigint): number | bigint {
  return b >= -9007199254740991n && b <= 9007199254740991n ? Number(b) : b;
}

/** Wraps an integer to int64 like Go's arithmetic does. */
export function wrapInt64(b: bigint): bigint {
  if (b >= INT64_MIN && b <= INT64_MAX) return b;
  return BigInt.asIntN(64, b);
}

// ---------------------------------------------------------------------------
// Errors

/** Go's %q-like quoting for values shown inside error messages. */
export function quoteForError(s: string): string {
  return JSON.stringify(s);
}

/** How a scalar is shown in parentheses after a type error; empty for non-scalars. */
export function describeScalar(v: unknown): string {
  if (typeof v === 'string') return quoteForError(v);
  if (v instanceof Uint8Array) return quoteForError(bytesToString(v));
  if (typeof v === 'number' || typeof v === 'bigint') return formatNumber(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v instanceof Timestamp) return formatTimestamp(v);
  if (v instanceof JsonNumber) return v.text;
  return '';
}

function joinExpected(expected: readonly string[]): string {
  if (expected.length === 0) return 'unexpected value';
  let out = 'expected ';
  for (let i = 0; i < expected.length; i++) {
    if (i > 0) out += expected.length > 2 && i < expected.length - 1 ? ', ' : ' or ';
    out += expected[i];
  }
  return `${out} value`;
}

/**
 * A value of the wrong type. The compiler fills `from` with a description of the expression
 * that produced the value (e.g. "field `this.a`"), giving the reference's message shape:
 * `expected number value, got string from field `this.a` ("foo")`.
 */
export class TypeMismatchError extends BloblangError {
  constructor(
    readonly expected: readonly string[],
    readonly actual: unknown,
    readonly from = '',
  ) {
    super(TypeMismatchError.render(expected, actual, from));
  }

  static render(expected: readonly string[], actual: unknown, from: string): string {
    let msg = `${joinExpected(expected)}, got ${typeName(actual)}`;
    if (from) msg += ` from ${from}`;
    const shown = describeScalar(actual);
    if (shown) msg += ` (${shown})`;
    return msg;
  }

  withFrom(from: string): TypeMismatchError {
    return this.from ? this : new TypeMismatchError(this.expected, this.actual, from);
  }
}

// ---------------------------------------------------------------------------
// Coercion

export function expectString(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array) return bytesToString(v);
  throw new TypeMismatchError(['string'], v);
}

export function expectNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof JsonNumber) return v.toFiniteNumber();
  throw new TypeMismatchError(['number'], v);
}

/** An integer as int64 semantics want it: a safe number or a bigint. Floats are truncated. */
export function expectInt(v: unknown): number | bigint {
  if (typeof v === 'bigint') return normaliseInt(v);
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new BloblangError(`cannot convert ${formatNumber(v)} to an integer`);
    const t = Math.trunc(v);
    return Number.isSafeInteger(t) ? t : normaliseInt(wrapInt64(BigInt(t)));
  }
  if (v instanceof JsonNumber) return expectInt(v.toFiniteNumber());
  throw new TypeMismatchError(['number'], v);
}

export function expectBool(v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  throw new TypeMismatchError(['bool'], v);
}

export function expectArray(v: unknown): Value[] {
  if (Array.isArray(v)) return v;
  throw new TypeMismatchError(['array'], v);
}

export function expectObject(v: unknown): ValueObject {
  if (isObject(v)) return v;
  throw new TypeMismatchError(['object'], v);
}

const utf8Decoder = new TextDecoder();
const utf8Encoder = new TextEncoder();

export function bytesToString(b: Uint8Array): string {
  return utf8Decoder.decode(b);
}

export function stringToBytes(s: string): Uint8Array {
  return utf8Encoder.encode(s);
}

/** Parses a number the way Go's strconv.ParseFloat accepts it; null when it is not a number. */
export function parseNumberText(s: string): number | bigint | null {
  const t = s.trim();
  if (/^[+-]?\d+$/.test(t)) {
    const n = Number(t);
    if (Number.isSafeInteger(n)) return n;
    const b = BigInt(t);
    return b >= INT64_MIN && b <= INT64_MAX ? normaliseInt(b) : n;
  }
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return Number(t);
  if (/^[+-]?(inf|infinity)$/i.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
  if (/^nan$/i.test(t)) return Number.NaN;
  return null;
}

// ---------------------------------------------------------------------------
// Formatting

/** The `.string()` conversion: strings verbatim, bytes decoded, everything else as JSON. */
export function valueToString(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array) return bytesToString(v);
  if (typeof v === 'number' || typeof v === 'bigint') return formatNumber(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v === null || v === undefined) return 'null';
  if (v instanceof Timestamp) return formatTimestamp(v);
  if (v instanceof JsonNumber) return v.text;
  // The reference renders both sentinels as null (e.g. a `match` without a matching case).
  if (v === DELETED || v === NOTHING) return 'null';
  return toJson(v as Value);
}

/** The `.bytes()` conversion. */
export function valueToBytes(v: unknown): Uint8Array {
  if (v instanceof Uint8Array) return v;
  return stringToBytes(valueToString(v));
}

// ---------------------------------------------------------------------------
// ---------------------------------------------------------------------------
// Equality and ordering

function numericEqual(a: number | bigint, b: number | bigint): boolean {
  if (typeof a === typeof b) return a === b;
  // biome-ignore lint/suspicious/noDoubleEquals: loose equality compares bigint with number by value
  return a == b;
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A number of any representation as a number or bigint (a kept JSON number as its float64). */
function numericOf(v: unknown): number | bigint | null {
  if (typeof v === 'number' || typeof v === 'bigint') return v;
  if (v instanceof JsonNumber) return v.toNumber();
  return null;
}

/** Equality of two values that are not both arrays or objects (`undefined` when they are). */
function leafEqual(a: unknown, b: unknown): boolean | undefined {
  if (a === b) return true;
  if (isNumber(a) || a instanceof JsonNumber) {
    if (a instanceof JsonNumber && b instanceof JsonNumber && a.text === b.text) return true;
    const x = numericOf(a) as number | bigint;
    const y = numericOf(b);
    return y !== null && numericEqual(x, y);
  }
  if (typeof a === 'string') return b instanceof Uint8Array && bytesToString(b) === a;
  if (a instanceof Uint8Array) {
    if (typeof b === 'string') return bytesToString(a) === b;
    return b instanceof Uint8Array && bytesEqual(a, b);
  }
  if (a instanceof Timestamp) return b instanceof Timestamp && a.epochNs === b.epochNs;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) return Array.isArray(b) ? undefined : false;
  if (!isObject(a) || !isObject(b)) return false;
  return undefined;
}

/** Structural equality as `==` sees it: numbers by value, bytes equal strings with the same text. */
export function deepEqual(a: unknown, b: unknown, depth = 0): boolean {
  const leaf = leafEqual(a, b);
  if (leaf !== undefined) return leaf;
  if (depth >= RECURSION_DEPTH) return deepEqualWithStack(a, b, depth);
  if (Array.isArray(a)) {
    const bb = b as Value[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], bb[i], depth + 1)) return false;
    return true;
  }
  const oa = a as ValueObject;
  const ob = b as ValueObject;
  const ka = Object.keys(oa);
  if (ka.length !== Object.keys(ob).length) return false;
  for (const k of ka) {
    if (!Object.hasOwn(ob, k) || !deepEqual(oa[k], ob[k], depth + 1)) return false;
  }
  return true;
}

function deepEqualWithStack(rootA: unknown, rootB: unknown, rootDepth: number): boolean {
  const pending: Array<[unknown, unknown, number]> = [[rootA, rootB, rootDepth]];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const [a, b, depth] = item;
    const leaf = leafEqual(a, b);
    if (leaf === false) return false;
    if (leaf === true) continue;
    if (depth >= MAX_DEPTH) throw new BloblangError('value is nested too deeply to compare');
    if (Array.isArray(a)) {
      const bb = b as Value[];
      if (a.length !== bb.length) return false;
      for (let i = 0; i < a.length; i++) pending.push([a[i], bb[i], depth + 1]);
      continue;
    }
    const oa = a as ValueObject;
    const ob = b as ValueObject;
    const ka = Object.keys(oa);
    if (ka.length !== Object.keys(ob).length) return false;
    for (const k of ka) {
      if (!Object.hasOwn(ob, k)) return false;
      pending.push([oa[k], ob[k], depth + 1]);
    }
  }
  return true;
}

/**
 * Ordering of two values of the same comparable kind (numbers, strings/bytes, timestamps).
 * Returns negative/zero/positive, or null when the kinds cannot be ordered. A kept JSON number
 * orders by its float64 and fails when that overflows, as in the reference.
 */
export function compareValues(a: unknown, b: unknown): number | null {
  if (isNumber(a) && isNumber(b)) {
    if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (a instanceof JsonNumber || b instanceof JsonNumber) {
    const x = a instanceof JsonNumber ? a.toFiniteNumber() : a;
    const y = b instanceof JsonNumber ? b.toFiniteNumber() : b;
    return isNumber(x) && isNumber(y) ? compareValues(x, y) : null;
  }
  const sa = typeof a === 'string' ? a : a instanceof Uint8Array ? bytesToString(a) : null;
  const sb = typeof b === 'string' ? b : b instanceof Uint8Array ? bytesToString(b) : null;
  if (sa !== null && sb !== null) return sa < sb ? -1 : sa > sb ? 1 : 0;
  if (a instanceof Timestamp && b instanceof Timestamp) {
    return a.epochNs < b.epochNs ? -1 : a.epochNs > b.epochNs ? 1 : 0;
  }
  return null;
}

// ---------------------------------------------------------------------------
// Cloning

const isImmutable = (v: unknown): boolean =>
  v === null ||
  typeof v !== 'object' ||
  v instanceof Uint8Array ||
  v instanceof Timestamp ||
  v instanceof JsonNumber;

/** Deep copy of arrays and objects; scalars, bytes, timestamps and kept numbers are immutable and shared. */
export function cloneValue<T extends Value>(v: T, depth = 0): T {
  if (isImmutable(v)) return v;
  if (depth >= RECURSION_DEPTH) return cloneWithStack(v, depth);
  if (Array.isArray(v)) {
    const out = new Array<Value>(v.length);
    for (let i = 0; i < v.length; i++) out[i] = cloneValue(v[i], depth + 1);
    return out as T;
  }
  const out: ValueObject = {};
  const o = v as ValueObject;
  for (const k in o) setKey(out, k, cloneValue(o[k], depth + 1));
  return out as T;
}

function cloneWithStack<T extends Value>(root: T, rootDepth: number): T {
  const shell = (v: Value): Value => (Array.isArray(v) ? new Array<Value>(v.length) : {});
  const top = shell(root);
  // Each entry: a source container, its copy (members still to fill) and its depth.
  const pending: Array<[Value[] | ValueObject, Value[] | ValueObject, number]> = [
    [root as Value[] | ValueObject, top as Value[] | ValueObject, rootDepth],
  ];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const [from, to, depth] = item;
    if (depth >= MAX_DEPTH) throw new BloblangError('value is nested too deeply to copy');
    const copyMember = (m: Value): Value => {
      if (isImmutable(m)) return m;
      const c = shell(m);
      pending.push([m as Value[] | ValueObject, c as Value[] | ValueObject, depth + 1]);
      return c;
    };
    if (Array.isArray(from)) {
      const arr = to as Value[];
      for (let i = 0; i < from.length; i++) arr[i] = copyMember(from[i] as Value);
    } else {
      for (const k in from) setKey(to as ValueObject, k, copyMember(from[k] as Value));
    }
  }
  return top as T;
}

/** Sets an own key, treating `__proto__` as an ordinary key like JSON.parse does. */
export function setKey(o: ValueObject, key: string, v: Value): void {
  if (key === '__proto__')
    Object.defineProperty(o, key, { value: v, enumerable: true, writable: true, configurable: true });
  else o[key] = v;
}

/** Copies only the top level of an array or object (for copy-on-write edits). */
export function shallowClone<T extends Value>(v: T): T {
  if (Array.isArray(v)) return v.slice() as T;
  if (isObject(v)) return { ...(v as ValueObject) } as T;
  return v;
}

/** Converts anything parsed from JSON or produced by JS code into a Bloblang value. */
export function fromUnknown(v: unknown): Value {
  if (v === undefined) return null;
  return v as Value;
}
