// Go duration strings ("1h30m") and ISO 8601 periods ("P1Y2M3DT4H") as integer nanoseconds.
import { fail } from './support.js';

const UNIT_NS: Record<string, bigint> = {
  ns: 1n,
  us: 1000n,
  µs: 1000n,
  μs: 1000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

const goQuote = (s: string) => JSON.stringify(s);

/** Go's time.ParseDuration, giving nanoseconds. */
export function parseGoDuration(text: string): bigint {
  let s = text;
  let neg = false;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') throw fail(`time: invalid duration ${goQuote(text)}`);
  let total = 0n;
  while (s !== '') {
    const m = /^(\d*)(?:\.(\d*))?/.exec(s)!;
    if (m[0] === '' || m[0] === '.' || (m[1] === '' && (m[2] ?? '') === '')) {
      throw fail(`time: invalid duration ${goQuote(text)}`);
    }
    s = s.slice(m[0].length);
    const u = /^[^\d.]+/.exec(s);
    if (!u) throw fail(`time: missing unit in duration ${goQuote(text)}`);
    const unit = UNIT_NS[u[0]];
    if (unit === undefined) throw fail(`time: unknown unit ${goQuote(u[0])} in duration ${goQuote(text)}`);
    s = s.slice(u[0].length);
    total += BigInt(m[1] || '0') * unit;
    const frac = m[2] ?? '';
    if (frac) total += (BigInt(frac) * unit) / 10n ** BigInt(frac.length);
    if (total > 9223372036854775807n) throw fail(`time: invalid duration ${goQuote(text)}`);
  }
  return neg ? -total : total;
}

export interface Period {
  negative: boolean;
  years: string;
  months: string;
  weeks: string;
  days: string;
  hours: string;
  minutes: string;
  seconds: string;
}

const SECONDS_PER: Record<keyof Omit<Period, 'negative'>, bigint> = {
  years: 31_556_952n, // 365.2425 days
  months: 2_629_746n, // a twelfth of that
  weeks: 604_800n,
  days: 86_400n,
  hours: 3600n,
  minutes: 60n,
  seconds: 1n,
};

const periodCache = new Map<string, Period>();

/** Parses an ISO 8601 period with the reference's error texts. Field values stay decimal text. */
export function parsePeriod(text: string): Period {
  const cached = periodCache.get(text);
  if (cached) return cached;
  const p: Period = {
    negative: false,
    years: '',
    months: '',
    weeks: '',
    days: '',
    hours: '',
    minutes: '',
    seconds: '',
  };
  let s = text;
  if (s[0] === '-' || s[0] === '+') {
    p.negative = s[0] === '-';
    s = s.slice(1);
  }
  if (s[0] !== 'P') throw fail(`${text}: expected 'P' period mark at the start`);
  s = s.slice(1);
  if (s === '') throw fail(`${text}: expected 'Y', 'M', 'W', 'D', 'H', 'M', or 'S' designator`);
  let inTime = false;
  let fractionAt = '';
  let seenAny = false;
  while (s !== '') {
    if (s[0] === 'T') {
      if (inTime) throw fail(`${text}: 'T' designator cannot occur more than once`);
      inTime = true;
      s = s.slice(1);
      continue;
    }
    const m = /^(\d+(?:[.,]\d+)?)([A-Za-z])/.exec(s);
    if (!m) throw fail(`${text}: expected a number but found '${s[0]}'`);
    const num = m[1].replace(',', '.');
    const d = m[2];
    const dateFields: Record<string, keyof Period> = { Y: 'years', M: 'months', W: 'weeks', D: 'days' };
    const timeFields: Record<string, keyof Period> = { H: 'hours', M: 'minutes', S: 'seconds' };
    const field = (inTime ? timeFields : dateFields)[d];
    if (!field) throw fail(`${text}: '${d}' designator cannot occur here`);
    if (p[field] !== '') throw fail(`${text}: '${d}' designator cannot occur more than once`);
    if (fractionAt) throw fail(`${text}: '${fractionAt}' & '${d}' only the last field can have a fraction`);
    if (num.includes('.')) fractionAt = d;
    (p as unknown as Record<string, string>)[field] = num;
    seenAny = true;
    s = s.slice(m[0].length);
  }
  if (!seenAny) throw fail(`${text}: expected 'Y', 'M', 'W', 'D', 'H', 'M', or 'S' designator`);
  if (periodCache.size > 500) periodCache.clear();
  periodCache.set(text, p);
  return p;
}

/** Decimal text times an integer number of units, in nanoseconds (exact). */
function decimalTimes(num: string, unitSeconds: bigint): bigint {
  if (num === '') return 0n;
  const [whole, frac = ''] = num.split('.');
  const scale = 10n ** BigInt(frac.length);
  return ((BigInt(whole + frac) * unitSeconds * 1_000_000_000n) / scale) as bigint;
}

/** Approximate length of a period: years of 365.2425 days, months a twelfth of that. */
export function periodNanos(p: Period): bigint {
  let total = 0n;
  for (const k of Object.keys(SECONDS_PER) as Array<keyof typeof SECONDS_PER>) {
    total += decimalTimes(p[k], SECONDS_PER[k]);
  }
  return p.negative ? -total : total;
}

/** Splits a period into whole calendar parts and a remaining exact duration. */
export function periodCalendarParts(p: Period): {
  years: number;
  months: number;
  days: number;
  rest: bigint;
} {
  const whole = (s: string) => (s === '' || s.includes('.') ? 0 : Number(s));
  const sign = p.negative ? -1 : 1;
  const years = whole(p.years);
  const months = whole(p.months);
  const days = whole(p.days) + whole(p.weeks) * 7;
  let rest = 0n;
  for (const k of Object.keys(SECONDS_PER) as Array<keyof typeof SECONDS_PER>) {
    const isCalendar = k === 'years' || k === 'months' || k === 'days' || k === 'weeks';
    if (isCalendar && !p[k].includes('.')) continue;
    rest += decimalTimes(p[k], SECONDS_PER[k]);
  }
  return { years: sign * years, months: sign * months, days: sign * days, rest: p.negative ? -rest : rest };
}
