// Matching call arguments to a function/method's parameters and coercing them to their types.
import type { CallArgs, Expr } from './ast.js';
import {
  BloblangError,
  JsonNumber,
  type ParamSpec,
  type ParamType,
  Timestamp,
  type Value,
} from './library.js';
import { expectInt, TypeMismatchError, typeName } from './value.js';

const variadicSlots: ParamSpec[] = [];

/**
 * The parameters a call binds against: a variadic function or method takes as many untyped
 * positional slots as the call gives, so its implementation sees exactly the arguments passed.
 */
export function paramsFor(
  def: { params: readonly ParamSpec[]; variadic?: boolean },
  args: CallArgs,
): readonly ParamSpec[] {
  if (!def.variadic) return def.params;
  const n = args.positional.length;
  while (variadicSlots.length < n) {
    variadicSlots.push({ name: `arg${variadicSlots.length}`, type: 'unknown', optional: true });
  }
  return variadicSlots.slice(0, n);
}

/** Arguments in parameter order: an expression, or undefined when omitted. */
export function bindArgs(
  params: readonly ParamSpec[],
  args: CallArgs,
  fail: (message: string) => never,
): Array<Expr | undefined> {
  const out: Array<Expr | undefined> = new Array(params.length).fill(undefined);
  if (args.named) {
    for (const { name, value } of args.named) {
      const idx = params.findIndex((p) => p.name === name);
      if (idx < 0) fail(`unknown parameter ${name}`);
      out[idx] = value;
    }
  } else {
    if (args.positional.length > params.length) {
      fail(`wrong number of arguments, expected ${params.length}, got ${args.positional.length}`);
    }
    args.positional.forEach((a, i) => {
      out[i] = a;
    });
  }
  params.forEach((p, i) => {
    if (out[i] === undefined && !p.optional && p.default === undefined) fail(`missing parameter: ${p.name}`);
  });
  return out;
}

/** Checks and converts an evaluated argument to its parameter type. */
export function coerceArg(p: ParamSpec, v: unknown): Value | undefined {
  if (v === undefined) return p.default;
  try {
    return coerceType(p.type, v);
  } catch (e) {
    if (e instanceof BloblangError) throw new BloblangError(`field ${p.name}: ${e.message}`);
    throw e;
  }
}

function coerceType(type: ParamType, v: unknown): Value {
  switch (type) {
    case 'string':
      if (typeof v === 'string') return v;
      if (v instanceof Uint8Array) return new TextDecoder().decode(v);
      throw new BloblangError(`wrong argument type, expected string, got ${typeName(v)}`);
    case 'integer':
      if (typeof v === 'number' || typeof v === 'bigint' || v instanceof JsonNumber) return expectInt(v);
      throw new TypeMismatchError(['number'], v);
    case 'float':
    case 'number':
      if (typeof v === 'number') return v;
      if (typeof v === 'bigint') return type === 'float' ? Number(v) : v;
      if (v instanceof JsonNumber) return v.toFiniteNumber();
      throw new TypeMismatchError(['number'], v);
    case 'bool':
      if (typeof v === 'boolean') return v;
      throw new TypeMismatchError(['bool'], v);
    case 'array':
      if (Array.isArray(v)) return v;
      throw new TypeMismatchError(['array'], v);
    case 'object':
      if (
        typeof v === 'object' &&
        v !== null &&
        !Array.isArray(v) &&
        !(v instanceof Uint8Array) &&
        !(v instanceof Timestamp) &&
        !(v instanceof JsonNumber)
      ) {
        return v as Value;
      }
      throw new TypeMismatchError(['object'], v);
    default:
      return v as Value;
  }
}
