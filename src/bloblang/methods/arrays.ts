// Array methods (several also accept objects, where the reference does).
import { type Args, DELETED, NOTHING, type QueryArg, type Value } from '../library.js';
import {
  bytesToString,
  compareValues,
  deepEqual,
  isObject,
  TypeMismatchError,
  typeName,
  type ValueObject,
  valueToString,
} from '../value.js';
import {
  argInt,
  argOptQuery,
  argOptString,
  argQuery,
  argValue,
  expectTestBool,
  fail,
  method,
  p,
  restArgs,
} from './support.js';

function arrayTarget(t: Value): Value[] {
  if (!Array.isArray(t)) throw new TypeMismatchError(['array'], t);
  return t;
}

/** Runs a test query over each element; non-bool results are an error naming the element. */
function testEach(t: Value, a: Args, stop: boolean): boolean {
  const arr = arrayTarget(t);
  const test = argQuery(a, 0);
  if (arr.length === 0) return false;
  for (let i = 0; i < arr.length; i++) {
    const ok = expectTestBool(test(arr[i]), `element ${i}`);
    if (ok === stop) return stop;
  }
  return !stop;
}

method('all', [p.query('test')], (t, a) => testEach(t, a, false));
method('any', [p.query('test')], (t, a) => testEach(t, a, true));

method('append', [], (t, a) => [...arrayTarget(t), ...restArgs(a)], {
  variadic: true,
});

method(
  'concat',
  [],
  (t, a) => {
    const out = [...arrayTarget(t)];
    for (const v of restArgs(a)) out.push(...arrayTarget(v));
    return out;
  },
  { variadic: true },
);

method(
  'zip',
  [],
  (t, a) => {
    const arrays = [arrayTarget(t), ...restArgs(a).map(arrayTarget)];
    const len = arrays[0].length;
    if (arrays.some((arr) => arr.length !== len)) throw fail("can't zip different length array values");
    return arrays[0].map((_, i) => arrays.map((arr) => arr[i]));
  },
  { variadic: true },
);

method('contains', [p.any('value')], (t, a) => {
  const needle = argValue(a, 0);
  if (typeof t === 'string') return t.includes(valueToString(needle));
  if (t instanceof Uint8Array) return bytesToString(t).includes(valueToString(needle));
  if (Array.isArray(t)) return t.some((e) => deepEqual(e, needle));
  if (isObject(t)) return Object.values(t).some((e) => deepEqual(e, needle));
  throw new TypeMismatchError(['string', 'array', 'object'], t);
});

method('enumerated', [], (t) => arrayTarget(t).map((value, index) => ({ index, value })));

/** Filters arrays by element and objects by {key, value}; only `true` keeps an entry. */
method('filter', [p.query('test')], (t, a) => {
  const test = argQuery(a, 0);
  if (Array.isArray(t)) return t.filter((e) => test(e) === true);
  if (isObject(t)) {
    const out: ValueObject = {};
    for (const [key, value] of Object.entries(t)) if (test({ key, value }) === true) out[key] = value;
    return out;
  }
  throw new TypeMismatchError(['array', 'object'], t);
});

method('find', [p.any('value')], (t, a) => arrayTarget(t).findIndex((e) => deepEqual(e, argValue(a, 0))));
method('find_all', [p.any('value')], (t, a) => {
  const needle = argValue(a, 0);
  const out: number[] = [];
  arrayTarget(t).forEach((e, i) => {
    if (deepEqual(e, needle)) out.push(i);
  });
  return out;
});
method('find_by', [p.query('query')], (t, a) => {
  const q = argQuery(a, 0);
  return arrayTarget(t).findIndex((e) => q(e) === true);
});
method('find_all_by', [p.query('query')], (t, a) => {
  const q = argQuery(a, 0);
  const out: number[] = [];
  arrayTarget(t).forEach((e, i) => {
    if (q(e) === true) out.push(i);
  });
  return out;
});

method('flatten', [], (t) => {
  const out: Value[] = [];
  for (const e of arrayTarget(t)) {
    if (Array.isArray(e)) out.push(...e);
    else out.push(e);
  }
  return out;
});

method('fold', [p.any('initial'), p.query('query')], (t, a) => {
  const q = argQuery(a, 1);
  let tally = argValue(a, 0);
  for (const value of arrayTarget(t)) tally = q({ tally, value });
  return tally;
});

method('index', [p.int('index')], (t, a) => {
  const i = argInt(a, 0, 'index');
  if (t instanceof Uint8Array) {
    const idx = i < 0 ? t.length + i : i;
    if (idx < 0 || idx >= t.length) throw fail(`index out of bounds: ${i}`);
    return t[idx];
  }
  const arr = arrayTarget(t);
  const idx = i < 0 ? arr.length + i : i;
  if (idx < 0 || idx >= arr.length) throw fail(`index out of bounds: ${i}`);
  return arr[idx];
});

method('join', [p.str('delimiter', { optional: true })], (t, a) => {
  const delim = argOptString(a, 0) ?? '';
  const items = arrayTarget(t);
  // Concatenated directly: no intermediate array per call (join is common in hot mappings).
  let out = '';
  for (let i = 0; i < items.length; i++) {
    const e = items[i];
    let part: string;
    if (typeof e === 'string') part = e;
    else if (e instanceof Uint8Array) part = bytesToString(e);
    else throw fail(`failed to join element ${i}: ${new TypeMismatchError(['string'], e).message}`);
    out = i === 0 ? part : out + delim + part;
  }
  return out;
});

/** Applies a query to each element (array) or {key, value} pair (object); deleted() drops it. */
method('map_each', [p.query('query')], (t, a) => {
  const q = argQuery(a, 0);
  if (Array.isArray(t)) {
    const out: Value[] = [];
    for (const e of t) {
      const r = q(e) as unknown;
      if (r === DELETED) continue;
      out.push(r === NOTHING ? e : (r as Value));
    }
    return out;
  }
  if (isObject(t)) {
    const out: ValueObject = {};
    for (const [key, value] of Object.entries(t)) {
      const r = q({ key, value }) as unknown;
      if (r === DELETED) continue;
      out[key] = r === NOTHING ? value : (r as Value);
    }
    return out;
  }
  throw new TypeMismatchError(['object', 'array'], t);
});

function sortableCompare(x: Value, y: Value, ix: number, iy: number): number {
  for (const [v, i] of [
    [x, ix],
    [y, iy],
  ] as const) {
    if (
      !(typeof v === 'number' || typeof v === 'bigint' || typeof v === 'string' || v instanceof Uint8Array)
    ) {
      throw fail(`sort element ${i}: ${new TypeMismatchError(['number', 'string'], v).message}`);
    }
  }
  const c = compareValues(x, y);
  if (c === null) {
    throw fail(
      `sort element ${iy}: ${new TypeMismatchError([typeName(x) === 'string' ? 'string' : 'number'], y).message}`,
    );
  }
  return c;
}

function sortWithIndexes<T>(arr: T[], cmp: (x: T, y: T, ix: number, iy: number) => number): T[] {
  const indexed = arr.map((v, i) => ({ v, i }));
  indexed.sort((x, y) => cmp(x.v, y.v, x.i, y.i));
  return indexed.map((e) => e.v);
}

method('sort', [p.query('compare', { optional: true })], (t, a) => {
  const arr = arrayTarget(t);
  const compare = argOptQuery(a, 0);
  if (!compare) return sortWithIndexes(arr, sortableCompare);
  const less = (left: Value, right: Value): boolean => {
    const r = compare({ left, right });
    if (typeof r !== 'boolean') throw fail(`sort comparator: ${new TypeMismatchError(['bool'], r).message}`);
    return r;
  };
  return sortWithIndexes(arr, (x, y) => (less(x, y) ? -1 : less(y, x) ? 1 : 0));
});

method('sort_by', [p.query('query')], (t, a) => {
  const q: QueryArg = argQuery(a, 0);
  const keyed = arrayTarget(t).map((v) => ({ v, k: q(v) }));
  return sortWithIndexes(keyed, (x, y, ix, iy) => sortableCompare(x.k, y.k, ix, iy)).map((e) => e.v);
});

/** Key used to detect duplicates: numbers by value, strings by text. */
function uniqueKey(v: Value, i: number): string {
  if (typeof v === 'number' || typeof v === 'bigint') return `n:${Number(v)}`;
  if (typeof v === 'string') return `s:${v}`;
  if (v instanceof Uint8Array) return `s:${bytesToString(v)}`;
  throw fail(`index ${i}: ${new TypeMismatchError(['string', 'number'], v).message}`);
}

method('unique', [p.query('emit', { optional: true })], (t, a) => {
  const arr = arrayTarget(t);
  const emit = argOptQuery(a, 0);
  const seen = new Set<string>();
  const out: Value[] = [];
  arr.forEach((v, i) => {
    const key = uniqueKey(emit ? emit(v) : v, i);
    if (seen.has(key)) return;
    seen.add(key);
    out.push(v);
  });
  return out;
});
