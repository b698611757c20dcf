// Go-style JSON output of values (keys sorted, no HTML escaping, Go number and time formatting):
// what a message's structured content and every Bloblang `.string()` serialise to.

import {
  BloblangError,
  JsonNumber,
  MAX_DEPTH,
  RECURSION_DEPTH,
  Timestamp,
  type Value,
  type ValueObject,
} from './value.js';
import { formatNumber, formatTimestamp } from './value_format.js';

const NEEDS_FIXUP = /[\u2028\u2029]/;

function quoteJson(s: string): string {
  const q = JSON.stringify(s);
  // Go escapes the JS line terminators; JSON.stringify leaves them raw.
  return NEEDS_FIXUP.test(q) ? q.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029') : q;
}

/**
 * A value JSON cannot carry (NaN, ±Inf) or nested deeper than MAX_DEPTH. Thrown while
 * serialising; the mapping processors check their result first so that the message fails there
 * (flagged, for `catch`) instead of in an output.
 */
export class UnserialisableValueError extends BloblangError {}

function jsonNumber(n: number | bigint): string {
  if (typeof n === 'number' && !Number.isFinite(n)) {
    throw new UnserialisableValueError(`json: unsupported value: ${formatNumber(n)}`);
  }
  return formatNumber(n);
}

const tooDeep = () =>
  new UnserialisableValueError(`value is nested deeper than ${MAX_DEPTH} levels and cannot be serialised`);

function sortedKeys(o: ValueObject): string[] {
  const keys = Object.keys(o);
  // An insertion sort in place: Array.prototype.sort copies into a work array first, which was
  // ~900 bytes of garbage per serialised document (10% of W4's allocation). Same order as sort():
  // `<` and sort() both compare UTF-16 code units.
  if (keys.length > 16) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i] as string;
    let j = i - 1;
    while (j >= 0 && (keys[j] as string) > key) {
      keys[j + 1] = keys[j] as string;
      j--;
    }
    keys[j + 1] = key;
  }
  return keys;
}

/** The JSON of a string, number, boolean or null (undefined and symbols are null); undefined for anything else. */
function scalarJson(v: unknown): string | undefined {
  switch (typeof v) {
    case 'string':
      return quoteJson(v);
    case 'number':
    case 'bigint':
      return jsonNumber(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object':
      return v === null ? 'null' : undefined;
    default:
      return 'null';
  }
}

/** The JSON of any value that is not an array or object; undefined for those. */
function leafJson(v: unknown): string | undefined {
  const scalar = scalarJson(v);
  if (scalar !== undefined) return scalar;
  if (v instanceof JsonNumber) return v.text;
  // Bytes inside a structure serialise as base64, as Go's encoding/json does for []byte.
  if (v instanceof Uint8Array) return quoteJson(Buffer.from(v).toString('base64'));
  if (v instanceof Timestamp) return quoteJson(formatTimestamp(v));
  return undefined;
}

// Object keys repeat from message to message: their quoted form is kept (bounded).
const quotedKeys = new Map<string, string>();

function quoteKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = quoteJson(key);
    if (quotedKeys.size < 10_000) quotedKeys.set(key, quoted);
  }
  return quoted;
}

/** An array or object being written by writeWithStack: which member comes next. */
interface OpenContainer {
  value: Value[] | ValueObject;
  keys: string[] | null;
  next: number;
  prefix: string;
}

/**
 * JSON of `root` (found `depth` levels down) with an explicit stack instead of recursion: used
 * for indented output and for whatever lies deeper than RECURSION_DEPTH.
 */
function writeWithStack(
  root: unknown,
  depth: number,
  indent: string,
  prefix: string,
  checkLength: (length: number) => void = () => undefined,
): string {
  const open: OpenContainer[] = [];
  const colon = indent ? ': ' : ':';
  let out = '';
  let v = root;
  let at = prefix;
  for (;;) {
    const leaf = leafJson(v);
    if (leaf !== undefined) out += leaf;
    else if (depth + open.length >= MAX_DEPTH) throw tooDeep();
    else if (Array.isArray(v)) {
      if (v.length === 0) out += '[]';
      else {
        out += '[';
        open.push({ value: v, keys: null, next: 0, prefix: at });
      }
    } else {
      const keys = sortedKeys(v as ValueObject);
      if (keys.length === 0) out += '{}';
      else {
        out += '{';
        open.push({ value: v as ValueObject, keys, next: 0, prefix: at });
      }
    }
    // Move to the next member to write, closing every container that is complete.
    for (;;) {
      const top = open[open.length - 1];
      if (top === undefined) return out;
      const keys = top.keys;
      const size = keys === null ? (top.value as Value[]).length : keys.length;
      if (top.next < size) {
        if (top.next > 0) out += ',';
        at = indent ? top.prefix + indent : '';
        if (indent) {
          // Indentation grows with depth times size: a small deep value could make gigabytes.
          checkLength(out.length);
          out += `\n${at}`;
        }
        if (keys === null) v = (top.value as Value[])[top.next];
        else {
          const key = keys[top.next] as string;
          out += quoteKey(key) + colon;
          v = (top.value as ValueObject)[key];
        }
        top.next++;
        break;
      }
      open.pop();
      if (indent) out += `\n${top.prefix}`;
      out += keys === null ? ']' : '}';
    }
  }
}

/** Compact JSON: the hot path of every message a mapping produces (recursion, then a stack). */
function writeCompact(v: unknown, depth: number): string {
  const scalar = scalarJson(v);
  if (scalar !== undefined) return scalar;
  if (depth >= RECURSION_DEPTH) return writeWithStack(v, depth, '', '');
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    let out = `[${writeCompact(v[0], depth + 1)}`;
    for (let i = 1; i < v.length; i++) out += `,${writeCompact(v[i], depth + 1)}`;
    return `${out}]`;
  }
  const leaf = leafJson(v);
  if (leaf !== undefined) return leaf;
  const o = v as ValueObject;
  const keys = sortedKeys(o);
  if (keys.length === 0) return '{}';
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (i > 0) out += ',';
    out += `${quoteKey(key)}:${writeCompact(o[key], depth + 1)}`;
  }
  return `${out}}`;
}

/** Compact JSON like Go's encoder: keys sorted, no HTML escaping, Go number formatting. */
export function toJson(v: unknown): string {
  return writeCompact(v, 0);
}

/** Indented JSON, same rules as toJson; `checkLength` sees the text's length as it grows. */
export function indentedJson(v: unknown, indent: string, checkLength: (length: number) => void): string {
  return writeWithStack(v, 0, indent, '', checkLength);
}

/**
 * Why `v` cannot be serialised as JSON (a NaN or infinite number, or nesting beyond MAX_DEPTH),
 * or null when it can. A walk without building the text: cheaper than toJson for a result that
 * may never be written (a mapping whose output is `drop`).
 */
export function unserialisableReason(v: unknown, depth = 0): string | null {
  if (typeof v === 'number') return Number.isFinite(v) ? null : `json: unsupported value: ${formatNumber(v)}`;
  if (typeof v !== 'object' || v === null) return null;
  if (depth >= RECURSION_DEPTH) return unserialisableDeep(v, depth);
  // Members are tested in line (no call for a string or a finite number): this runs on every
  // mapping result.
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const m = v[i];
      if (typeof m === 'object' ? m !== null : typeof m === 'number' && !Number.isFinite(m)) {
        const why = unserialisableReason(m, depth + 1);
        if (why !== null) return why;
      }
    }
    return null;
  }
  if (v instanceof Uint8Array || v instanceof Timestamp || v instanceof JsonNumber) return null;
  const o = v as ValueObject;
  for (const key in o) {
    const m = o[key];
    if (typeof m === 'object' ? m !== null : typeof m === 'number' && !Number.isFinite(m)) {
      const why = unserialisableReason(m, depth + 1);
      if (why !== null) return why;
    }
  }
  return null;
}

function unserialisableDeep(root: unknown, rootDepth: number): string | null {
  const values: unknown[] = [root];
  const depths: number[] = [rootDepth];
  while (values.length > 0) {
    const v = values.pop();
    const depth = depths.pop() as number;
    if (typeof v !== 'object' || v === null) {
      if (typeof v === 'number' && !Number.isFinite(v)) return `json: unsupported value: ${formatNumber(v)}`;
      continue;
    }
    if (v instanceof Uint8Array || v instanceof Timestamp || v instanceof JsonNumber) continue;
    if (depth >= MAX_DEPTH) return tooDeep().message;
    const members = Array.isArray(v) ? v : Object.values(v as ValueObject);
    for (const m of members) {
      values.push(m);
      depths.push(depth + 1);
    }
  }
  return null;
}
