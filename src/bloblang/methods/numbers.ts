// Number methods: rounding, maths, bitwise operations and range-checked integer/float casts.

import { isInt64 } from '../arith.js';
import { JsonNumber, type Value } from '../library.js';
import { bytesToString, normaliseInt, TypeMismatchError } from '../value.js';
import { argInt, argNumber, fail, method, p, simpleMethod } from './support.js';
import { parseGoFloat, toFloat } from './type.js';

function num(t: Value): number {
  if (typeof t === 'number') return t;
  if (typeof t === 'bigint') return Number(t);
  if (t instanceof JsonNumber) return t.toFiniteNumber();
  throw new TypeMismatchError(['number'], t);
}

/** Integer results that fit int64 stay integers (bigint beyond 2^53). */
function intResult(f: number): number | bigint {
  if (Number.isSafeInteger(f)) return f;
  if (Number.isInteger(f) && Math.abs(f) < 2 ** 63) return normaliseInt(BigInt(f));
  return f;
}

simpleMethod('abs', (t) => {
  if (typeof t === 'bigint') return normaliseInt(t < 0n ? -t : t);
  return Math.abs(num(t));
});

simpleMethod('ceil', (t) => (typeof t === 'bigint' ? t : intResult(Math.ceil(num(t)))));
simpleMethod('floor', (t) => (typeof t === 'bigint' ? t : intResult(Math.floor(num(t)))));
simpleMethod('round', (t) => {
  if (typeof t === 'bigint') return t;
  const f = num(t);
  const whole = Math.trunc(f);
  // Go's math.Round: halves away from zero.
  return intResult(Math.abs(f - whole) >= 0.5 ? whole + Math.sign(f) : whole);
});

simpleMethod('log', (t) => Math.log(num(t)));
simpleMethod('log10', (t) => Math.log10(num(t)));
simpleMethod('sin', (t) => Math.sin(num(t)));
simpleMethod('cos', (t) => Math.cos(num(t)));
simpleMethod('tan', (t) => Math.tan(num(t)));
method('pow', [p.float('exponent')], (t, a) => num(t) ** argNumber(a, 0));

function numericArray(t: Value): Array<number | bigint> {
  if (!Array.isArray(t)) throw new TypeMismatchError(['array'], t);
  return t.map((e, i) => {
    if (typeof e === 'number' || typeof e === 'bigint') return e;
    if (e instanceof JsonNumber) return e.toFiniteNumber();
    throw fail(`index ${i}: ${new TypeMismatchError(['number'], e).message}`);
  });
}

simpleMethod('max', (t) => {
  const arr = numericArray(t);
  if (arr.length === 0) throw fail('the array was empty');
  let best = arr[0];
  for (const v of arr) if (v > best) best = v;
  return best;
});

simpleMethod('min', (t) => {
  const arr = numericArray(t);
  if (arr.length === 0) throw fail('the array was empty');
  let best = arr[0];
  for (const v of arr) if (v < best) best = v;
  return best;
});

simpleMethod('sum', (t) => {
  if (!Array.isArray(t)) throw new TypeMismatchError(['array'], t);
  let allInt = true;
  let intSum = 0n;
  let floatSum = 0;
  t.forEach((member, i) => {
    // A JSON number kept as text sums as its float64 (an error when that overflows).
    const e = member instanceof JsonNumber ? member.toFiniteNumber() : member;
    if ((typeof e === 'bigint' || typeof e === 'number') && isInt64(e)) {
      intSum += BigInt(e);
    } else if (typeof e === 'number' || typeof e === 'bigint') {
      allInt = false;
      floatSum += Number(e);
    } else {
      throw fail(`index ${i}: ${new TypeMismatchError(['number'], e).message}`);
    }
  });
  if (allInt) return normaliseInt(BigInt.asIntN(64, intSum));
  return floatSum + Number(intSum);
});

// Bitwise --------------------------------------------------------------------

function toBig(t: Value): bigint {
  if (typeof t === 'bigint') return t;
  if (t instanceof JsonNumber) return BigInt(Math.trunc(t.toFiniteNumber()));
  if (typeof t === 'number') return BigInt(Math.trunc(t));
  throw new TypeMismatchError(['number'], t);
}

const BITWISE: Array<[string, (a: bigint, b: bigint) => bigint]> = [
  ['bitwise_and', (a, b) => a & b],
  ['bitwise_or', (a, b) => a | b],
  ['bitwise_xor', (a, b) => a ^ b],
];
for (const [name, op] of BITWISE) {
  method(name, [p.int('value')], (t, a) =>
    normaliseInt(BigInt.asIntN(64, op(toBig(t), BigInt(argInt(a, 0))))),
  );
}

// Casts ----------------------------------------------------------------------

const INT64_MAX = 9223372036854775807n;
const INT64_MIN = -9223372036854775808n;
const UINT64_MAX = 18446744073709551615n;

/** Go's strconv.ParseInt/ParseUint with base 0 (prefixes 0x, 0o, 0b, 0 and underscores). */
function parseGoInt(s: string, unsigned: boolean): bigint {
  const fn = unsigned ? 'ParseUint' : 'ParseInt';
  const syntax = () => fail(`strconv.${fn}: parsing ${JSON.stringify(s)}: invalid syntax`);
  const m = /^([+-]?)(0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|0[0-7_]*|[1-9][0-9_]*)$/.exec(s);
  if (!m || (unsigned && m[1] !== '')) throw syntax();
  let body = m[2];
  const prefixed = /^0[xXoObB]/.test(body);
  if (body.includes('_')) {
    // Underscores are only allowed between digits of a prefixed or octal literal.
    if (!(prefixed || body.startsWith('0')) || /__|_$/.test(body) || /^0[xXoObB]?_?$/.test(body))
      throw syntax();
    body = body.replaceAll('_', '');
  }
  let value: bigint;
  if (prefixed) value = BigInt(body.toLowerCase().replace(/^0o/, '0o'));
  else if (body.length > 1 && body.startsWith('0')) value = BigInt(`0o${body.slice(1)}`);
  else value = BigInt(body);
  if (m[1] === '-') value = -value;
  const [lo, hi] = unsigned ? [0n, UINT64_MAX] : [INT64_MIN, INT64_MAX];
  if (value < lo || value > hi) throw fail(`strconv.${fn}: parsing ${JSON.stringify(s)}: value out of range`);
  return value;
}

function toInt64(t: Value): bigint {
  if (typeof t === 'bigint') {
    if (t > INT64_MAX) throw fail('unsigned integer value is too large to be cast as a signed integer');
    return t;
  }
  if (typeof t === 'number') {
    if (Number.isNaN(t)) throw fail('cannot convert NAN to an integer');
    if (!Number.isFinite(t)) throw fail('cannot convert +/-INF to an integer');
    if (t >= 2 ** 63) throw fail('float value is too large to be cast as a signed integer');
    if (t < -(2 ** 63)) throw fail('float value is too small to be cast as a signed integer');
    if (!Number.isInteger(t)) {
      throw fail(
        'float value contains decimals and therefore cannot be cast as a signed integer, if you intend to round the value then call `.round()` explicitly before this cast',
      );
    }
    return BigInt(t);
  }
  if (typeof t === 'string') return parseGoInt(t, false);
  if (t instanceof Uint8Array) return parseGoInt(bytesToString(t), false);
  throw new TypeMismatchError(['number'], t);
}

function toUint64(t: Value): bigint {
  if (typeof t === 'bigint') {
    if (t < 0n) throw fail('signed integer value is negative and cannot be cast as an unsigned integer');
    return t;
  }
  if (typeof t === 'number') {
    if (t < 0) {
      if (Number.isInteger(t))
        throw fail('signed integer value is negative and cannot be cast as an unsigned integer');
      throw fail('float value is negative and cannot be cast as an unsigned integer');
    }
    if (Number.isNaN(t)) throw fail('cannot convert NAN to an unsigned integer');
    if (!Number.isFinite(t)) throw fail('cannot convert +/-INF to an unsigned integer');
    if (t >= 2 ** 64) throw fail('float value is too large to be cast as an unsigned integer');
    if (!Number.isInteger(t)) {
      throw fail(
        'float value contains decimals and therefore cannot be cast as an unsigned integer, if you intend to round the value then call `.round()` explicitly before this cast',
      );
    }
    return BigInt(t);
  }
  if (typeof t === 'string') return parseGoInt(t, true);
  if (t instanceof Uint8Array) return parseGoInt(bytesToString(t), true);
  throw new TypeMismatchError(['number'], t);
}

simpleMethod('int64', (t) => normaliseInt(toInt64(t)));
simpleMethod('uint64', (t) => normaliseInt(toUint64(t)));

const SIGNED: Array<[string, number, string]> = [
  ['int32', 32, 'a 32-bit signed integer'],
  ['int16', 16, 'a 16-bit signed integer'],
  ['int8', 8, 'an 8-bit signed integer'],
];
for (const [name, bits, what] of SIGNED) {
  const max = (1n << BigInt(bits - 1)) - 1n;
  const min = -(1n << BigInt(bits - 1));
  simpleMethod(name, (t) => {
    const v = toInt64(t);
    if (v > max) throw fail(`value is too large to be cast as ${what}`);
    if (v < min) throw fail(`value is too small to be cast as ${what}`);
    return Number(v);
  });
}

const UNSIGNED: Array<[string, number, string]> = [
  ['uint32', 32, 'a 32-bit unsigned integer'],
  ['uint16', 16, 'a 16-bit unsigned integer'],
  ['uint8', 8, 'an 8-bit unsigned integer'],
];
for (const [name, bits, what] of UNSIGNED) {
  const max = (1n << BigInt(bits)) - 1n;
  simpleMethod(name, (t) => {
    const v = toUint64(t);
    if (v > max) throw fail(`value is too large to be cast as ${what}`);
    return Number(v);
  });
}

simpleMethod('float64', (t) => toFloat(t));

/** The float32 nearest to `f`, as the shortest double that prints like Go prints the float32. */
export function toFloat32(f: number): number {
  const single = Math.fround(f);
  if (!Number.isFinite(single) || single === 0) return single;
  for (let digits = 1; digits <= 9; digits++) {
    const candidate = Number(single.toPrecision(digits));
    if (Math.fround(candidate) === single) return candidate;
  }
  return single;
}

simpleMethod('float32', (t) => {
  let f: number;
  if (typeof t === 'string' || t instanceof Uint8Array) {
    const s = typeof t === 'string' ? t : bytesToString(t);
    f = parseGoFloat(s);
    if (Math.abs(f) > 3.4028234663852886e38) {
      throw fail(`strconv.ParseFloat: parsing ${JSON.stringify(s)}: value out of range`);
    }
  } else f = num(t);
  return toFloat32(f);
});
