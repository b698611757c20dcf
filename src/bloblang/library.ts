// The contract between the Bloblang compiler and its function/method catalogue.
// The compiler resolves a call by name, checks and fills its arguments from `params`, turns
// `query` parameters into callables, and then calls `impl`. Catalogue files only register.
import type { Message } from '../message/message.js';

/** A Bloblang value. Integers outside the safe range are bigint; timestamps are Timestamp. */
export type Value =
  | null
  | boolean
  | number
  | bigint
  | JsonNumber
  | string
  | Uint8Array
  | Timestamp
  | Value[]
  | { [key: string]: Value };

/**
 * The widest instant a calendar date can be computed for: JavaScript's Date range (±8.64e12 s,
 * about years -271821 to 275760) less two days, so a zone offset cannot push it out.
 */
const TIMESTAMP_LIMIT_NS = (8_640_000_000_000n - 172_800n) * 1_000_000_000n;

/**
 * An instant with nanosecond precision and the zone it is shown in. One outside the Date range
 * cannot be made (the error fails the message): it could never be shown as a date.
 */
export class Timestamp {
  constructor(
    /** Nanoseconds since the Unix epoch. */
    readonly epochNs: bigint,
    /** IANA zone name ('UTC', 'America/New_York') or a fixed offset like '+02:00'. */
    readonly zone: string = 'UTC',
  ) {
    if (epochNs > TIMESTAMP_LIMIT_NS || epochNs < -TIMESTAMP_LIMIT_NS)
      throw new BloblangError(
        `timestamp out of range: ${epochNs / 1_000_000_000n} seconds from the epoch is outside years -271821 to 275760`,
      );
  }
}

/**
 * A JSON number kept as it was written because a float64 cannot hold its value (1e400, 1e-400,
 * 0.1000000000000000000001): the reference decodes JSON numbers as text (Go's json.Number), so an
 * untouched field is written back with the same digits. Arithmetic reads it as a float64 and
 * fails when that is out of range, as the reference's json.Number.Float64() does.
 */
export class JsonNumber {
  constructor(readonly text: string) {}

  /** The float64 nearest to the text: ±Infinity when it overflows, 0 when it underflows. */
  toNumber(): number {
    return Number(this.text);
  }

  /** The float64 value for arithmetic; an error when the text overflows a float64. */
  toFiniteNumber(): number {
    const n = Number(this.text);
    if (!Number.isFinite(n))
      throw new BloblangError(`strconv.ParseFloat: parsing "${this.text}": value out of range`);
    return n;
  }
}

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
export class BloblangError extends Error {}

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
