// The contract between the Bloblang compiler and its function/method catalogue.
// The compiler resolves a call by name, checks and fills its arguments from `params`, turns
// `query` parameters into callables, and then calls `impl`. Catalogue files only register.
import type { Message } from '../message/message.js';
import { BloblangError, JsonNumber, Timestamp, type Value } from '../message/value.js';

// The value model lives below Bloblang (message/value.ts): messages parse into it too.
export { BloblangError, JsonNumber, Timestamp, type Value };

export type ParamType =
  | 'string'
  | 'integer'
  | 'float'
  | 'number'
  | 'bool'
  | 'timestamp'
  | 'array'
  | 'object'
  | 'unknown'
  /** A lambda or expression, evaluated by the callee with a context value of its choosing. */
  | 'query';

export interface ParamSpec {
  name: string;
  type: ParamType;
  /** Optional parameters without a default arrive as `undefined`. */
  optional?: boolean;
  default?: Value;
}

/** A query argument: evaluate the expression with `context` as `this`. May throw BloblangError. */
export type QueryArg = (context: Value) => Value;

/** What a function or method can read about the message being mapped. */
export interface CallContext {
  readonly batch: readonly Message[];
  readonly index: number;
  /** State kept per compiled mapping instance, e.g. for `counter()`; key by a unique symbol. */
  readonly state: Map<unknown, unknown>;
}

/** Arguments in parameter order, defaults filled; a `query` parameter is a QueryArg. */
export type Args = Array<Value | QueryArg | undefined>;

export interface FunctionDef {
  name: string;
  params: ParamSpec[];
  /** Accepts any number of positional arguments, passed as given (`params` is then empty). */
  variadic?: boolean;
  /** Non-deterministic or environment-reading (now(), env(), uuid_v4()). */
  impure?: boolean;
  /**
   * `site` is one object per place the function is written in a mapping: state keyed by it in
   * `ctx.state` belongs to that call site (each `counter()` counts on its own, as in the reference).
   */
  impl(args: Args, ctx: CallContext, site: object): Value;
}

export interface MethodDef {
  name: string;
  params: ParamSpec[];
  /** Accepts any number of positional arguments, passed as given (`params` is then empty). */
  variadic?: boolean;
  /** Checks arguments that are all constants when the mapping is compiled; throws to refuse them. */
  checkArgs?(args: Args): void;
  impl(target: Value, args: Args, ctx: CallContext): Value;
}

/** A failure inside a function or method; the compiler adds line/column context. */

/** Sentinel values a mapping can produce besides ordinary values. */
export const DELETED: unique symbol = Symbol('deleted');
export const NOTHING: unique symbol = Symbol('nothing');

const functions = new Map<string, FunctionDef>();
const methods = new Map<string, MethodDef>();

export function registerFunction(def: FunctionDef): void {
  functions.set(def.name, def);
}

export function registerMethod(def: MethodDef): void {
  methods.set(def.name, def);
}

export function lookupFunction(name: string): FunctionDef | undefined {
  return functions.get(name);
}

export function lookupMethod(name: string): MethodDef | undefined {
  return methods.get(name);
}

export function functionNames(): string[] {
  return [...functions.keys()].sort();
}

export function methodNames(): string[] {
  return [...methods.keys()].sort();
}
