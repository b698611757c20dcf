// Type inspection and coercion: type, string, bytes, number, bool, array, not_null, not_empty, not, map.

import { parseGoBool } from '../../message/go_bool.js';
import { DELETED, JsonNumber, NOTHING, type Value } from '../library.js';
import { isObject, TypeMismatchError, typeName, valueToBytes, valueToString } from '../value.js';
import { argQuery, fail, method, p, simpleMethod } from './support.js';

simpleMethod('type', (t) => typeName(t));
simpleMethod('string', (t) => valueToString(t));
simpleMethod('bytes', (t) => valueToBytes(t));
simpleMethod('array', (t) => (Array.isArray(t) ? t : [t]));

simpleMethod('not_null', (t) => {
  if (t === null || (t as unknown) === DELETED || (t as unknown) === NOTHING) throw fail('value is null');
  return t;
});

simpleMethod('not_empty', (t) => {
  if (typeof t === 'string') {
    if (t === '') throw fail('string value is empty');
  } else if (t instanceof Uint8Array) {
    if (t.length === 0) throw fail('bytes value is empty');
  } else if (Array.isArray(t)) {
    if (t.length === 0) throw fail('array value is empty');
  } else if (isObject(t)) {
    if (Object.keys(t).length === 0) throw fail('object value is empty');
  } else {
    throw new TypeMismatchError(['string', 'array', 'object'], t);
  }
  return t;
});

simpleMethod('not', (t) => {
  if (typeof t !== 'boolean') throw new TypeMismatchError(['bool'], t);
  return !t;
});

method('map', [p.query('query')], (t, a) => argQuery(a, 0)(t));

function toBool(t: Value): boolean {
  if (typeof t === 'boolean') return t;
  if (typeof t === 'number') return t !== 0;
  if (typeof t === 'bigint') return t !== 0n;
  const s = typeof t === 'string' ? t : t instanceof Uint8Array ? new TextDecoder().decode(t) : null;
  const parsed = s === null ? undefined : parseGoBool(s);
  if (parsed !== undefined) return parsed;
  throw new TypeMismatchError(['bool'], t);
}

method('bool', [p.bool('default', { optional: true })], (t, a) => {
  try {
    return toBool(t);
  } catch (e) {
    if (typeof a[0] === 'boolean') return a[0];
    throw e;
  }
});

const FLOAT_TEXT = /^[+-]?(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d+)?$/;
const HEX_FLOAT = /^[+-]?0[xX][0-9a-fA-F_]*(?:\.[0-9a-fA-F_]*)?(?:[pP][+-]?\d+)?$/;

/** Go's strconv.ParseFloat(s, 64), with its error texts. */
export function parseGoFloat(s: string, fn = 'ParseFloat'): number {
  const syntax = () => fail(`strconv.${fn}: parsing ${JSON.stringify(s)}: invalid syntax`);
  const lower = s.toLowerCase();
  const unsigned = lower.replace(/^[+-]/, '');
  if (unsigned === 'inf' || unsigned === 'infinity') return lower.startsWith('-') ? -Infinity : Infinity;
  if (unsigned === 'nan') return Number.NaN;
  let n: number;
  if (FLOAT_TEXT.test(s)) {
    if (s.includes('_')) throw syntax();
    n = Number(s);
  } else if (HEX_FLOAT.test(s) && /[pP]/.test(s)) {
    const m = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?\d+)$/.exec(s.replaceAll('_', ''));
    if (!m) throw syntax();
    const mant =
      Number.parseInt(m[2] || '0', 16) + (m[3] ? Number.parseInt(m[3], 16) / 16 ** m[3].length : 0);
    n = (m[1] === '-' ? -1 : 1) * mant * 2 ** Number(m[4]);
  } else {
    throw syntax();
  }
  if (!Number.isFinite(n)) throw fail(`strconv.${fn}: parsing ${JSON.stringify(s)}: value out of range`);
  return n;
}

/** A number from a number or numeric text (`number()`, `float64()`). */
export function toFloat(t: Value): number {
  if (typeof t === 'number') return t;
  if (typeof t === 'bigint') return Number(t);
  if (t instanceof JsonNumber) return t.toFiniteNumber();
  if (typeof t === 'string') return parseGoFloat(t);
  if (t instanceof Uint8Array) return parseGoFloat(new TextDecoder().decode(t));
  throw new TypeMismatchError(['number'], t);
}

method('number', [p.float('default', { optional: true })], (t, a) => {
  try {
    return toFloat(t);
  } catch (e) {
    if (typeof a[0] === 'number' || typeof a[0] === 'bigint') return a[0];
    throw e;
  }
});
