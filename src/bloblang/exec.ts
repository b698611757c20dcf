// Per-execution state of a compiled mapping, and the copy-on-write document edits it performs.
import type { Message } from '../message/message.js';
import { BloblangError, type CallContext, DELETED, NOTHING, type Value } from './library.js';
import { isObject, type Result, setKey, shallowClone, type ValueObject } from './value.js';

/** Marks the top-level `this` before the input document has been parsed. */
export const LAZY_THIS: unique symbol = Symbol('lazy this');

export type Self = Result | typeof LAZY_THIS;

export class Exec implements CallContext {
  /** The document being built (`root`). */
  root: Result = NOTHING;
  /** `let` variables by compile-time slot; undefined when never assigned. */
  vars: Array<Result | undefined>;
  /** Named contexts (`x -> ...`) by compile-time slot. */
  labels: Result[] = [];
  /** Containers this execution created or copied, which it may therefore edit in place. */
  private owned: object[] | null = null;
  private parsedThis: Value | typeof LAZY_THIS = LAZY_THIS;
  /** The object assignPath made as the root: this execution owns it and it is a plain object. */
  madeRoot: ValueObject | null = null;
  /** The message being built, whose metadata `@` reads and `meta x =` writes (null in queries). */
  out: Message | null = null;
  /** Nesting of named-map applications, bounded to stop runaway recursion. */
  depth = 0;

  constructor(
    readonly batch: readonly Message[],
    readonly index: number,
    readonly state: Map<unknown, unknown>,
    varCount: number,
  ) {
    this.vars = varCount === 0 ? EMPTY_VARS : new Array(varCount);
  }

  get msg(): Message {
    return this.batch[this.index];
  }

  /** The input document, parsed on first use. */
  thisValue(): Value {
    // Only LAZY_THIS is a symbol here (see Fn in compiler.ts on why typeof).
    if (typeof this.parsedThis === 'symbol') this.parsedThis = structuredOf(this.msg);
    return this.parsedThis;
  }

  setThis(v: Value): void {
    this.parsedThis = v;
  }

  owns(o: object): boolean {
    return o === this.madeRoot || this.owned?.includes(o) === true;
  }

  own<T extends object>(o: T): T {
    if (this.owned === null) this.owned = [o];
    else this.owned.push(o);
    return o;
  }

  /** A copy of `v` that this execution may edit, unless it already owns `v`. */
  writable(v: Value): Value {
    if (typeof v !== 'object' || v === null) return v;
    if (this.owns(v)) return v;
    return this.own(shallowClone(v) as object) as Value;
  }
}

const EMPTY_VARS: Array<Result | undefined> = [];

/** The parsed JSON content of a message, with the reference's error text when it is not JSON. */
export function structuredOf(msg: Message | undefined): Value {
  if (!msg) throw new BloblangError('message does not exist');
  try {
    return msg.structured() as Value;
  } catch (e) {
    throw new BloblangError(
      `unable to reference message as structured (with 'this'): parse as json: ${goJsonError(msg.text(), e)}`,
    );
  }
}

/** Approximates Go's encoding/json error text for a failed parse. */
export function goJsonError(text: string, _e: unknown): string {
  const trimmed = text.trim();
  if (trimmed === '') return 'unexpected end of JSON input';
  const c = trimmed[0];
  if (!'{["-0123456789tfn'.includes(c)) return `invalid character '${c}' looking for beginning of value`;
  return 'invalid character after top-level value';
}

function isIndex(key: string): boolean {
  return key.length > 0 && key.length < 10 && /^\d+$/.test(key);
}

/** Reads one field or array index; missing or mistyped paths read as null. */
export function getField(v: unknown, key: string): Value {
  if (typeof v !== 'object' || v === null) return null;
  if (Array.isArray(v)) {
    if (!isIndex(key)) return null;
    const r = v[Number(key)];
    return r === undefined ? null : r;
  }
  if (!isObject(v)) return null;
  if (!Object.hasOwn(v, key)) return null;
  return v[key];
}

/** Fast field read for keys that cannot collide with Object.prototype members. */
export function getPlainField(v: unknown, key: string): Value {
  if (typeof v !== 'object' || v === null) return null;
  if (Array.isArray(v)) return getField(v, key);
  const r = (v as ValueObject)[key];
  if (r === undefined || !isObject(v)) return null;
  return r;
}

/** Whether a key needs the own-property check (it names something on Object.prototype). */
export function isPrototypeKey(key: string): boolean {
  return key in Object.prototype || key === '__proto__';
}

function setChild(container: Value, key: string, value: Value): void {
  if (Array.isArray(container)) {
    const idx = Number(key);
    if (!isIndex(key) || idx >= container.length) {
      throw new BloblangError(`unable to set index ${key} of an array of length ${container.length}`);
    }
    container[idx] = value;
    return;
  }
  setKey(container as ValueObject, key, value);
}

function deleteChild(container: Value, key: string): void {
  if (Array.isArray(container)) {
    const idx = Number(key);
    if (isIndex(key) && idx < container.length) container.splice(idx, 1);
    return;
  }
  delete (container as ValueObject)[key];
}

function isContainer(v: unknown): boolean {
  return Array.isArray(v) || isObject(v);
}

/** Assigns `value` at `path` under the execution's root, copying shared containers first. */
export function assignPath(x: Exec, path: readonly string[], value: Result): void {
  if (value === NOTHING) return;
  const deleting = value === DELETED;
  let cur = x.root;
  // The common case, `root.key = value` on the object an earlier assignment made: nothing to check.
  if (path.length === 1 && cur === x.madeRoot && cur !== null && !deleting) {
    setKey(cur, path[0]!, value as Value);
    return;
  }
  if (!isContainer(cur) || (Array.isArray(cur) && !isIndex(path[0]))) {
    if (deleting) return;
    cur = x.madeRoot = x.own({});
  } else {
    cur = x.writable(cur as Value);
  }
  x.root = cur;
  const last = path.length - 1;
  for (let i = 0; i < last; i++) {
    const key = path[i];
    let next: Value = getField(cur, key);
    if (!isContainer(next) || (Array.isArray(next) && !isIndex(path[i + 1]))) {
      if (deleting) return;
      next = x.own({});
    } else {
      next = x.writable(next);
    }
    setChild(cur as Value, key, next);
    cur = next;
  }
  if (deleting) deleteChild(cur as Value, path[last]);
  else setChild(cur as Value, path[last], value as Value);
}
