// Arithmetic with the reference's int64/float64 rules: integer operands stay integers (bigint
// beyond 2^53, wrapping like int64), any float operand makes a float, `/` always divides as floats.
import { BloblangError, JsonNumber } from './library.js';
import { bytesToString, normaliseInt, stringToBytes, wrapInt64 } from './value.js';

type Num = number | bigint;

const INT64_MIN = -(2 ** 63);
const INT64_END = 2 ** 63;
const BIG_INT64_MIN = -(2n ** 63n);
const BIG_INT64_END = 2n ** 63n;

/**
 * Whether a value is an int64 in the reference's terms. A whole number outside int64 (1e20,
 * 1.5e300, 18446744073709551616) can only be a float64 there, so it is added as a float, never
 * wrapped like an int.
 */
export function isInt64(v: Num): boolean {
  if (typeof v === 'bigint') return v >= BIG_INT64_MIN && v < BIG_INT64_END;
  return Number.isInteger(v) && v >= INT64_MIN && v < INT64_END;
}

/** A number for arithmetic: a JSON number kept as text becomes its float64 (an error on overflow). */
export function asNumeric(v: Num | JsonNumber): Num {
  return v instanceof JsonNumber ? v.toFiniteNumber() : v;
}

function bigOp(a: Num, b: Num, op: (x: bigint, y: bigint) => bigint): Num {
  return normaliseInt(wrapInt64(op(BigInt(a), BigInt(b))));
}

export function addNumbers(a: Num, b: Num): Num {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a + b;
    if (Number.isSafeInteger(r) || !isInt64(a) || !isInt64(b)) return r;
    return bigOp(a, b, (x, y) => x + y);
  }
  if (isInt64(a) && isInt64(b)) return bigOp(a, b, (x, y) => x + y);
  return Number(a) + Number(b);
}

export function subNumbers(a: Num, b: Num): Num {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a - b;
    if (Number.isSafeInteger(r) || !isInt64(a) || !isInt64(b)) return r;
    return bigOp(a, b, (x, y) => x - y);
  }
  if (isInt64(a) && isInt64(b)) return bigOp(a, b, (x, y) => x - y);
  return Number(a) - Number(b);
}

export function mulNumbers(a: Num, b: Num): Num {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a * b;
    if (Number.isSafeInteger(r) || !isInt64(a) || !isInt64(b)) return r;
    return bigOp(a, b, (x, y) => x * y);
  }
  if (isInt64(a) && isInt64(b)) return bigOp(a, b, (x, y) => x * y);
  return Number(a) * Number(b);
}

export function divNumbers(a: Num, b: Num): Num {
  const d = Number(b);
  if (d === 0) throw new BloblangError('attempted to divide by zero');
  return Number(a) / d;
}

export function modNumbers(a: Num, b: Num): Num {
  const x = typeof a === 'bigint' ? a : BigInt(Math.trunc(a));
  const y = typeof b === 'bigint' ? b : BigInt(Math.trunc(b));
  if (y === 0n) throw new BloblangError('attempted to divide by zero');
  return normaliseInt(x % y);
}

/** `+` on strings and bytes concatenates; the result is bytes when the left side is. */
export function concat(a: string | Uint8Array, b: string | Uint8Array): string | Uint8Array {
  if (typeof a === 'string') return a + (typeof b === 'string' ? b : bytesToString(b));
  const bb = typeof b === 'string' ? stringToBytes(b) : b;
  const out = new Uint8Array(a.byteLength + bb.byteLength);
  out.set(a, 0);
  out.set(bb, a.byteLength);
  return out;
}
