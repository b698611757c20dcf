// Structural JSON comparison for json_equals / json_contains: key order and number formatting do
// not matter; "contains" lets the message have extra keys and extra trailing array items.
import { isPlainObject } from '../../config/normalise.js';

export function jsonEqual(actual: unknown, expected: unknown): boolean {
  return compare(actual, expected, false);
}

/** True when `actual` holds everything `expected` does (a superset, as the reference checks). */
export function jsonContains(actual: unknown, expected: unknown): boolean {
  return compare(actual, expected, true);
}

function compare(actual: unknown, expected: unknown, superset: boolean): boolean {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return false;
    if (superset ? actual.length < expected.length : actual.length !== expected.length) return false;
    return expected.every((item, i) => compare(actual[i], item, superset));
  }
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return false;
    const keys = Object.keys(expected);
    if (!superset && Object.keys(actual).length !== keys.length) return false;
    return keys.every((k) => Object.hasOwn(actual, k) && compare(actual[k], expected[k], superset));
  }
  if (isNumeric(expected) && isNumeric(actual)) return Number(expected) === Number(actual);
  return actual === expected;
}

function isNumeric(v: unknown): v is number | bigint {
  return typeof v === 'number' || typeof v === 'bigint';
}

/**
 * What of `actual` the comparison looked at, for a readable diff of a json_contains failure:
 * only the keys `expected` names (and as many array items), recursively.
 */
export function projectOnto(actual: unknown, expected: unknown): unknown {
  if (Array.isArray(expected) && Array.isArray(actual)) {
    return actual.slice(0, Math.max(expected.length, 0)).map((item, i) => projectOnto(item, expected[i]));
  }
  if (isPlainObject(expected) && isPlainObject(actual)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(expected))
      if (Object.hasOwn(actual, key)) out[key] = projectOnto(actual[key], expected[key]);
    return out;
  }
  return actual;
}

/** Pretty JSON with object keys sorted, so two documents diff line by line. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value), (_k, v) => (typeof v === 'bigint' ? Number(v) : v), 2);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (isPlainObject(value)) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys(value[k])]),
    );
  }
  return value;
}

/**
 * Metadata equality as the reference's metadata_equals compares: numbers by value, text and bytes
 * by their text, structured values deeply.
 */
export function looseEqual(actual: unknown, expected: unknown): boolean {
  if (actual instanceof Uint8Array) actual = Buffer.from(actual).toString('utf8');
  if (expected instanceof Uint8Array) expected = Buffer.from(expected).toString('utf8');
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((v, i) => looseEqual(actual[i], v))
    );
  }
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return false;
    const keys = Object.keys(expected);
    return (
      Object.keys(actual).length === keys.length &&
      keys.every((k) => Object.hasOwn(actual, k) && looseEqual(actual[k], expected[k]))
    );
  }
  if (isNumeric(expected) && isNumeric(actual)) return Number(expected) === Number(actual);
  return actual === expected;
}
