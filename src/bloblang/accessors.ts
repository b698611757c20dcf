// Reads of a fixed path (`this.user.address.city`) and writes of a fixed key (`root.city = ...`)
// as small functions of their own, generated once per path or key. V8 learns object shapes per
// piece of code: one shared `v[key]` sees every key and shape of every mapping and falls back to
// its slowest lookup (~110 instructions a read, ~150 a write in W2), while code of its own per key
// sees one or two shapes and reads or writes a field directly. The generated code only embeds keys
// as JSON string literals; where code cannot be generated, the shared functions do the work.
import { getField, getPlainField, isPrototypeKey } from './exec.js';
import type { Value } from './library.js';
import { isObject, type ValueObject } from './value.js';

/** The value at a path below `v`, missing or mistyped steps reading as null (see getPlainField). */
export type PathReader = (v: unknown) => Value;

/** Sets an own key of a plain object (never `__proto__`: that one needs defineProperty). */
export type KeyWriter = (o: ValueObject, v: Value) => void;

/** Bounds the caches: mappings are config, but many streams may each bring their own keys. */
const MAX_CACHED = 4096;
const readers = new Map<string, PathReader>();
const writers = new Map<string, KeyWriter>();

function remember<T>(cache: Map<string, T>, key: string, make: () => T): T {
  let fn = cache.get(key);
  if (fn === undefined) {
    fn = make();
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(key, fn);
  }
  return fn;
}

/** A reader of `path` (at least one key) with the semantics of getPlainField/getField per step. */
export function pathReader(path: readonly string[]): PathReader {
  return remember(readers, JSON.stringify(path), () => generateReader(path) ?? sharedReader(path));
}

/** A writer of `key` into plain objects, as `o[key] = v` (the key must not be `__proto__`). */
export function keyWriter(key: string): KeyWriter {
  if (key === '__proto__') throw new Error('keyWriter: __proto__ needs defineProperty');
  return remember(writers, key, () => generateWriter(key) ?? sharedWriter(key));
}

/**
 * A maker of empty plain objects (prototype Object.prototype, like `{}`) for one program's roots.
 * Objects from a constructor of their own start with room for as many fields as the first few
 * were given (V8's slack tracking), where `{}` has room for four and grows a separate property
 * array for the rest. A constructor, not a literal, so V8 never pretenures them.
 */
export function plainObjectMaker(): () => ValueObject {
  function PlainObject() {}
  PlainObject.prototype = Object.prototype;
  const Maker = PlainObject as unknown as new () => ValueObject;
  return () => new Maker();
}

function generateReader(path: readonly string[]): PathReader | null {
  // Each step: non-objects read null, arrays take the index rules, objects their own field; a key
  // found on bytes or timestamps (their own fields or methods) reads null too.
  const steps = path.map((key) => {
    const k = JSON.stringify(key);
    const own = isPrototypeKey(key)
      ? `v = getField(v, ${k});`
      : `{ const r = v[${k}]; v = r === undefined || !isObject(v) ? null : r; }`;
    return `if (typeof v !== 'object' || v === null) return null;
if (Array.isArray(v)) v = getField(v, ${k}); else ${own}`;
  });
  return generate<PathReader>(`return (v) => {\n${steps.join('\n')}\nreturn v;\n};`);
}

function generateWriter(key: string): KeyWriter | null {
  return generate<KeyWriter>(`return (o, v) => {\no[${JSON.stringify(key)}] = v;\n};`);
}

function generate<T>(body: string): T | null {
  try {
    return new Function('getField', 'isObject', body)(getField, isObject) as T;
  } catch {
    // Code generation from strings is disallowed (--disallow-code-generation-from-strings).
    return null;
  }
}

function sharedWriter(key: string): KeyWriter {
  return (o, v) => {
    o[key] = v;
  };
}

function sharedReader(path: readonly string[]): PathReader {
  const getters = path.map((k) => (isPrototypeKey(k) ? getField : getPlainField));
  return (v) => {
    let cur = v as Value;
    for (let i = 0; i < path.length; i++) cur = getters[i]!(cur, path[i]!);
    return cur;
  };
}
