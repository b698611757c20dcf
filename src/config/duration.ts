// Go durations: `ParseDuration` (300ms, 1.5h, 2h45m, -1m, 0) and `Duration.String()` (1h0m0s,
// 1.5µs). Computed in BigInt nanoseconds so results match Go exactly.

const UNITS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n, // U+00B5 micro sign
  μs: 1_000n, // U+03BC Greek mu
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};
const MAX_NS = (1n << 63n) - 1n;

export class DurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DurationError';
  }
}

const quote = (s: string) => JSON.stringify(s);

/** Nanoseconds as a BigInt; throws DurationError with Go's message on invalid input. */
export function parseDurationNsBig(input: string): bigint {
  const invalid = () => new DurationError(`time: invalid duration ${quote(input)}`);
  let s = input;
  let negative = false;
  if (s[0] === '-' || s[0] === '+') {
    negative = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') throw invalid();
  let total = 0n;
  while (s !== '') {
    const number = /^(\d*)(?:\.(\d*))?/.exec(s)!;
    const [matched, whole = '', fraction] = number;
    if (whole === '' && (fraction === undefined || fraction === '')) throw invalid();
    s = s.slice(matched.length);
    const unitMatch = /^[^0-9.]+/.exec(s);
    if (!unitMatch) throw new DurationError(`time: missing unit in duration ${quote(input)}`);
    const unitText = unitMatch[0];
    const unit = UNITS[unitText];
    if (unit === undefined) {
      throw new DurationError(`time: unknown unit ${quote(unitText)} in duration ${quote(input)}`);
    }
    s = s.slice(unitText.length);
    let value = BigInt(whole === '' ? '0' : whole) * unit;
    if (fraction) value += (BigInt(fraction) * unit) / 10n ** BigInt(fraction.length);
    total += value;
    if (total > MAX_NS + (negative ? 1n : 0n)) throw invalid();
  }
  return negative ? -total : total;
}

/** Nanoseconds (exact up to 2^53, about 104 days). */
export function parseDurationNs(input: string): number {
  return Number(parseDurationNsBig(input));
}

/** Milliseconds, possibly fractional (`1.5µs` -> 0.0015). */
export function parseDurationMs(input: string): number {
  const ns = parseDurationNsBig(input);
  return Number(ns / 1_000_000n) + Number(ns % 1_000_000n) / 1e6;
}

/** Like parseDurationMs but returns undefined instead of throwing (e.g. an ignored `?timeout=`). */
export function tryParseDurationMs(input: string): number | undefined {
  try {
    return parseDurationMs(input);
  } catch {
    return undefined;
  }
}

/** `v / 10^prec` as `.ddd` without trailing zeros (empty when the fraction is zero). */
function fraction(v: bigint, prec: number): [string, bigint] {
  let digits = '';
  let printed = false;
  for (let i = 0; i < prec; i++) {
    const digit = v % 10n;
    printed = printed || digit !== 0n;
    if (printed) digits = digit.toString() + digits;
    v /= 10n;
  }
  return [printed ? `.${digits}` : '', v];
}

/** Go's `Duration.String()` of a nanosecond count. */
export function formatDuration(nanoseconds: number | bigint): string {
  let u = typeof nanoseconds === 'bigint' ? nanoseconds : BigInt(Math.trunc(nanoseconds));
  const negative = u < 0n;
  if (negative) u = -u;
  let out: string;
  if (u < 1_000_000_000n) {
    if (u === 0n) return '0s';
    let unit: string;
    let prec: number;
    if (u < 1_000n) [unit, prec] = ['ns', 0];
    else if (u < 1_000_000n) [unit, prec] = ['µs', 3];
    else [unit, prec] = ['ms', 6];
    const [frac, whole] = fraction(u, prec);
    out = `${whole}${frac}${unit}`;
  } else {
    const [frac, seconds] = fraction(u, 9);
    out = `${seconds % 60n}${frac}s`;
    const minutes = seconds / 60n;
    if (minutes > 0n) {
      out = `${minutes % 60n}m${out}`;
      const hours = minutes / 60n;
      if (hours > 0n) out = `${hours}h${out}`;
    }
  }
  return negative ? `-${out}` : out;
}

/** A lint problem for text that is not a Go duration (`''` is allowed: unset). */
export function durationProblem(text: string): { message: string; line: number } | undefined {
  if (text.trim() === '') return undefined;
  try {
    parseDurationMs(text.trim());
    return undefined;
  } catch (err) {
    return { message: `invalid duration ${JSON.stringify(text)}: ${(err as Error).message}`, line: 1 };
  }
}
