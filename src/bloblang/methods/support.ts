// Shared helpers for the function/method catalogue: argument access, string-or-bytes targets,
// dot paths and small registration shortcuts. General value rules live in ../value.ts.
import {
  type Args,
  BloblangError,
  type CallContext,
  DELETED,
  JsonNumber,
  type MethodDef,
  NOTHING,
  type ParamSpec,
  type QueryArg,
  registerMethod,
  Timestamp,
  type Value,
} from '../library.js';
import {
  bytesToString,
  isObject,
  setKey,
  stringToBytes,
  TypeMismatchError,
  type ValueObject,
  valueToString,
} from '../value.js';

export const fail = (message: string): BloblangError => new BloblangError(message);

/** Rounds towards zero the way Go converts float64 to int64. */
function toInteger(v: unknown, name: string): number {
  if (typeof v === 'number') return Math.trunc(v);
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof JsonNumber) return Math.trunc(v.toFiniteNumber());
  throw fail(`parameter ${name}: ${new TypeMismatchError(['number'], v).message}`);
}

export function argString(args: Args, i: number): string {
  const v = args[i];
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array) return bytesToString(v);
  if (v instanceof Timestamp) return valueToString(v);
  throw new TypeMismatchError(['string'], v);
}

export function argOptString(args: Args, i: number): string | undefined {
  return args[i] === undefined || args[i] === null ? undefined : argString(args, i);
}

export function argInt(args: Args, i: number, name = 'value'): number {
  return toInteger(args[i], name);
}

export function argOptInt(args: Args, i: number, name = 'value'): number | undefined {
  return args[i] === undefined || args[i] === null ? undefined : toInteger(args[i], name);
}

export function argNumber(args: Args, i: number): number {
  const v = args[i];
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  throw new TypeMismatchError(['number'], v);
}

export function argBool(args: Args, i: number): boolean {
  const v = args[i];
  if (typeof v === 'boolean') return v;
  throw new TypeMismatchError(['bool'], v);
}

export function argQuery(args: Args, i: number): QueryArg {
  const v = args[i];
  if (typeof v === 'function') return v as QueryArg;
  // A plain value given where a query was expected behaves like a literal query.
  return () => (v ?? null) as Value;
}

export function argOptQuery(args: Args, i: number): QueryArg | undefined {
  return args[i] === undefined ? undefined : argQuery(args, i);
}

/** A value passed as-is (an `unknown` parameter). */
export function argValue(args: Args, i: number): Value {
  const v = args[i];
  return (v === undefined || typeof v === 'function' ? null : v) as Value;
}

export const isDeletedResult = (v: unknown): boolean => v === DELETED;
export const isNothingResult = (v: unknown): boolean => v === NOTHING;

/** Text of a string or bytes target; other types are a type error. */
export function targetString(v: Value): string {
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array) return bytesToString(v);
  throw new TypeMismatchError(['string'], v);
}

/** Bytes of a string or bytes target; other types are a type error. */
export function targetBytes(v: Value): Uint8Array {
  if (v instanceof Uint8Array) return v;
  if (typeof v === 'string') return stringToBytes(v);
  throw new TypeMismatchError(['string'], v);
}

/** A bool from a test query, with the reference's complaint when it is not one. */
export function expectTestBool(v: unknown, what: string): boolean {
  if (typeof v === 'boolean') return v;
  throw fail(`${what}: ${new TypeMismatchError(['bool'], v).message}`);
}

/** Short registration for a method with parameters. */
export function method(
  name: string,
  params: ParamSpec[],
  impl: (target: Value, args: Args, ctx: CallContext) => Value,
  extra: Partial<MethodDef> = {},
): void {
  registerMethod({ name, params, impl, ...extra });
}

/** A method that only looks at its target. */
export function simpleMethod(name: string, impl: (target: Value) => Value): void {
  registerMethod({ name, params: [], impl: (t) => impl(t) });
}

/**
 * A string method that keeps the kind of its target: strings give strings, bytes give bytes
 * (the reference applies its `bytes` variant in that case).
 */
export function stringTransform(
  name: string,
  fn: (s: string, args: Args) => string,
  params: ParamSpec[] = [],
) {
  registerMethod({
    name,
    params,
    impl(target, args) {
      if (typeof target === 'string') return fn(target, args);
      if (target instanceof Uint8Array) return stringToBytes(fn(bytesToString(target), args));
      throw new TypeMismatchError(['string'], target);
    },
  });
}

export const p = {
  str: (name: string, extra: Partial<ParamSpec> = {}): ParamSpec => ({ name, type: 'string', ...extra }),
  int: (name: string, extra: Partial<ParamSpec> = {}): ParamSpec => ({ name, type: 'integer', ...extra }),
  float: (name: string, extra: Partial<ParamSpec> = {}): ParamSpec => ({ name, type: 'float', ...extra }),
  bool: (name: string, extra: Partial<ParamSpec> = {}): ParamSpec => ({ name, type: 'bool', ...extra }),
  any: (name: string, extra: Partial<ParamSpec> = {}): ParamSpec => ({ name, type: 'unknown', ...extra }),
  query: (name: string, extra: Partial<ParamSpec> = {}): ParamSpec => ({ name, type: 'query', ...extra }),
  array: (name: string, extra: Partial<ParamSpec> = {}): ParamSpec => ({ name, type: 'array', ...extra }),
  ts: (name: string, extra: Partial<ParamSpec> = {}): ParamSpec => ({ name, type: 'timestamp', ...extra }),
};

// ---------------------------------------------------------------------------
// Dot paths (gabs style: `a.b.0`, `~1` escapes a dot and `~0` a tilde)

const pathCache = new Map<string, string[]>();

export function splitPath(path: string): string[] {
  let segs = pathCache.get(path);
  if (!segs) {
    segs = path === '' ? [] : path.split('.').map((s) => s.replaceAll('~1', '.').replaceAll('~0', '~'));
    if (pathCache.size > 1000) pathCache.clear();
    pathCache.set(path, segs);
  }
  return segs;
}

/** Value at a path, or undefined when any step is missing. */
export function getPath(root: Value, segs: readonly string[]): Value | undefined {
  let cur: Value | undefined = root;
  for (const seg of segs) {
    if (Array.isArray(cur)) {
      if (!/^\d+$/.test(seg)) return undefined;
      cur = cur[Number(seg)];
    } else if (isObject(cur)) {
      cur = Object.hasOwn(cur, seg) ? cur[seg] : undefined;
    } else {
      return undefined;
    }
    if (cur === undefined) return undefined;
  }
  return cur;
}

/** Copy of `root` with the value at `segs` replaced, creating objects along the way. */
export function setPath(root: Value, segs: readonly string[], v: Value): Value {
  if (segs.length === 0) return v;
  const [head, ...rest] = segs;
  if (Array.isArray(root) && /^\d+$/.test(head) && Number(head) < root.length) {
    const out = root.slice();
    out[Number(head)] = setPath(out[Number(head)], rest, v);
    return out;
  }
  const out: ValueObject = isObject(root) ? { ...root } : {};
  setKey(out, head, setPath(isObject(root) && Object.hasOwn(root, head) ? root[head] : null, rest, v));
  return out;
}

// ---------------------------------------------------------------------------
// Variadic methods (format, append, concat, zip, with, without)

/** The arguments given to a variadic method, with omitted ones as null. */
export function restArgs(args: Args): Value[] {
  let n = args.length;
  while (n > 0 && args[n - 1] === undefined) n--;
  const out: Value[] = new Array(n);
  for (let i = 0; i < n; i++) out[i] = (args[i] ?? null) as Value;
  return out;
}
