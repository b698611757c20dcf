// Object methods: keys/values, dot-path access, with/without, merge/assign, collapse, explode.
import { NOTHING, type Value } from '../library.js';
import { cloneValue, isObject, setKey, TypeMismatchError, typeName, type ValueObject } from '../value.js';
import {
  argQuery,
  argString,
  argValue,
  fail,
  getPath,
  method,
  p,
  restArgs,
  setPath,
  splitPath,
} from './support.js';

function objectTarget(t: Value): ValueObject {
  if (!isObject(t)) throw new TypeMismatchError(['object'], t);
  return t;
}

method('keys', [], (t) => Object.keys(objectTarget(t)).sort());
method('values', [], (t) => {
  const o = objectTarget(t);
  return Object.keys(o)
    .sort()
    .map((k) => o[k]);
});
method('key_values', [], (t) => {
  const o = objectTarget(t);
  return Object.keys(o)
    .sort()
    .map((key) => ({ key, value: o[key] }));
});

method('get', [p.str('path')], (t, a) => getPath(t, splitPath(argString(a, 0))) ?? null);
method('exists', [p.str('path')], (t, a) => getPath(t, splitPath(argString(a, 0))) !== undefined);

method('map_each_key', [p.query('query')], (t, a) => {
  const q = argQuery(a, 0);
  const out: ValueObject = {};
  for (const [key, value] of Object.entries(objectTarget(t))) {
    const r = q(key) as unknown;
    if (r === NOTHING) {
      setKey(out, key, value);
      continue;
    }
    if (typeof r !== 'string') {
      throw fail(`unexpected result from key mapping: ${new TypeMismatchError(['string'], r).message}`);
    }
    setKey(out, r, value);
  }
  return out;
});

// with / without ---------------------------------------------------------------

function deletePath(v: Value, segs: readonly string[]): Value {
  if (segs.length === 0) return v;
  const [head, ...rest] = segs;
  if (isObject(v)) {
    if (!Object.hasOwn(v, head)) return v;
    const out = { ...v };
    if (rest.length === 0) delete out[head];
    else out[head] = deletePath(v[head], rest);
    return out;
  }
  if (Array.isArray(v) && /^\d+$/.test(head) && Number(head) < v.length) {
    const out = v.slice();
    if (rest.length === 0) out.splice(Number(head), 1);
    else out[Number(head)] = deletePath(v[Number(head)], rest);
    return out;
  }
  return v;
}

function pathArgs(a: ReadonlyArray<unknown>): string[][] {
  return a.map((v, i) => {
    if (typeof v !== 'string') throw fail(`argument ${i}: ${new TypeMismatchError(['string'], v).message}`);
    return splitPath(v);
  });
}

method(
  'without',
  [],
  (t, a) => {
    let out = objectTarget(t) as Value;
    for (const segs of pathArgs(restArgs(a))) out = deletePath(out, segs);
    return out;
  },
  { variadic: true },
);

method(
  'with',
  [],
  (t, a) => {
    const o = objectTarget(t);
    let out: Value = {};
    for (const segs of pathArgs(restArgs(a))) {
      const v = getPath(o, segs);
      if (v !== undefined) out = setPath(out, segs, v);
    }
    return out;
  },
  { variadic: true },
);

// merge / assign -----------------------------------------------------------------

/** Deep merge where colliding non-object values are gathered into arrays. */
export function mergeValues(target: Value, source: Value): Value {
  if (isObject(target) && isObject(source)) {
    const out: ValueObject = { ...target };
    for (const [k, v] of Object.entries(source)) {
      setKey(out, k, Object.hasOwn(out, k) ? mergeValues(out[k], v) : v);
    }
    return out;
  }
  const left = Array.isArray(target) ? target : [target];
  const right = Array.isArray(source) ? source : [source];
  return [...left, ...right];
}

/** Deep merge where the source overrides colliding values; arrays are concatenated. */
function assignValues(target: Value, source: Value): Value {
  if (isObject(target) && isObject(source)) {
    const out: ValueObject = { ...target };
    for (const [k, v] of Object.entries(source)) {
      setKey(out, k, Object.hasOwn(out, k) ? assignValues(out[k], v) : v);
    }
    return out;
  }
  if (Array.isArray(target) && Array.isArray(source)) return [...target, ...source];
  return source;
}

function checkMergeable(t: Value, with_: Value): void {
  if (isObject(t) && !isObject(with_) && !Array.isArray(with_)) {
    throw fail(`cannot merge ${typeName(with_)} into object`);
  }
  if (!isObject(t) && !Array.isArray(t)) throw new TypeMismatchError(['object', 'array'], t);
}

method('merge', [p.any('with')], (t, a) => {
  const w = argValue(a, 0);
  if (Array.isArray(t)) return mergeValues(t, w);
  checkMergeable(t, w);
  return mergeValues(cloneValue(t), w);
});

method('assign', [p.any('with')], (t, a) => {
  const w = argValue(a, 0);
  if (Array.isArray(t)) return assignValues(t, w);
  checkMergeable(t, w);
  return assignValues(t, w);
});

method('squash', [], (t) => {
  if (!Array.isArray(t)) throw new TypeMismatchError(['array'], t);
  let out: Value = {};
  t.forEach((e, i) => {
    if (!isObject(e)) throw fail(`index ${i}: ${new TypeMismatchError(['object'], e).message}`);
    out = mergeValues(out, e);
  });
  return out;
});

// collapse / explode ---------------------------------------------------------------

method('collapse', [p.bool('include_empty', { default: false })], (t, a) => {
  const includeEmpty = a[0] === true;
  const out: ValueObject = {};
  const walk = (v: Value, prefix: string) => {
    if (isObject(v) || Array.isArray(v)) {
      const entries: Array<[string, Value]> = Array.isArray(v)
        ? v.map((e, i) => [String(i), e])
        : Object.entries(v);
      if (entries.length === 0) {
        if (includeEmpty && prefix !== '') setKey(out, prefix, v);
        return;
      }
      for (const [k, e] of entries) walk(e, prefix === '' ? k : `${prefix}.${k}`);
      return;
    }
    setKey(out, prefix, v);
  };
  if (!isObject(t) && !Array.isArray(t)) throw new TypeMismatchError(['object', 'array'], t);
  walk(t, '');
  return out;
});

method('explode', [p.str('path')], (t, a) => {
  const path = argString(a, 0);
  const segs = splitPath(path);
  const target = getPath(t, segs) ?? null;
  if (Array.isArray(target)) return target.map((e) => setPath(t, segs, e));
  if (isObject(target)) {
    const out: ValueObject = {};
    for (const [k, e] of Object.entries(target)) setKey(out, k, setPath(t, segs, e));
    return out;
  }
  throw fail(`expected array or object value at path '${path}', found: ${typeName(target)}`);
});
