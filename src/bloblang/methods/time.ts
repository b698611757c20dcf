// Timestamp and duration methods: ts_* (and their deprecated aliases), parse_duration*.
import { type Args, JsonNumber, Timestamp, type Value } from '../library.js';
import { bytesToString, formatTimestamp, normaliseInt, TypeMismatchError } from '../value.js';
import { argInt, argOptString, argString, fail, method, p, simpleMethod, targetString } from './support.js';
import { parseGoDuration, parsePeriod, periodCalendarParts, periodNanos } from './time_duration.js';
import { formatGoLayout, parseGoLayout, RFC3339_NANO } from './time_go_layout.js';
import { formatStrftime, parseStrptime } from './time_strftime.js';
import { addDate, resolveZone } from './time_zone.js';

const NS = 1_000_000_000n;

/** A target as a timestamp: timestamps, unix seconds (fractions kept) or RFC 3339 text. */
export function toTimestamp(v: Value): Timestamp {
  if (v instanceof Timestamp) return v;
  if (typeof v === 'bigint') return new Timestamp(v * NS, 'UTC');
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new TypeMismatchError(['number', 'string'], v);
    const whole = Math.trunc(v);
    const frac = v - whole;
    return new Timestamp(BigInt(whole) * NS + BigInt(Math.trunc(frac * 1e9)), 'UTC');
  }
  if (v instanceof JsonNumber) return toTimestamp(v.toFiniteNumber());
  if (typeof v === 'string') return parseGoLayout(RFC3339_NANO, v);
  if (v instanceof Uint8Array) return parseGoLayout(RFC3339_NANO, bytesToString(v));
  throw new TypeMismatchError(['number', 'string'], v);
}

function inZone(ts: Timestamp, tz: string | undefined): Timestamp {
  return tz === undefined ? ts : new Timestamp(ts.epochNs, resolveZone(tz));
}

/** Floor division for negative instants. */
function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

function registerAliases(
  names: string[],
  params: ReturnType<typeof p.str>[],
  impl: (t: Value, a: Args) => Value,
) {
  for (const name of names) method(name, params, impl);
}

// Parsing --------------------------------------------------------------------

method('ts_parse', [p.str('format')], (t, a) => parseGoLayout(argString(a, 0), targetString(t)));
method('parse_timestamp', [p.str('format')], (t, a) =>
  formatTimestamp(parseGoLayout(argString(a, 0), targetString(t))),
);
method('ts_strptime', [p.str('format')], (t, a) => parseStrptime(argString(a, 0), targetString(t)));
method('parse_timestamp_strptime', [p.str('format')], (t, a) =>
  formatTimestamp(parseStrptime(argString(a, 0), targetString(t))),
);

method('timestamp', [p.ts('default', { optional: true })], (t, a) => {
  try {
    return toTimestamp(t);
  } catch (e) {
    if (a[0] !== undefined && a[0] !== null) return toTimestamp(a[0] as Value);
    throw e;
  }
});

// Formatting -----------------------------------------------------------------

registerAliases(
  ['ts_format', 'format_timestamp'],
  [p.str('format', { default: RFC3339_NANO }), p.str('tz', { optional: true })],
  (t, a) => formatGoLayout(inZone(toTimestamp(t), argOptString(a, 1)), argString(a, 0)),
);

registerAliases(
  ['ts_strftime', 'format_timestamp_strftime'],
  [p.str('format'), p.str('tz', { optional: true })],
  (t, a) => formatStrftime(inZone(toTimestamp(t), argOptString(a, 1)), argString(a, 0)),
);

const unixUnits: Array<[string, bigint]> = [
  ['', NS],
  ['_milli', 1_000_000n],
  ['_micro', 1000n],
  ['_nano', 1n],
];
for (const [suffix, div] of unixUnits) {
  const impl = (t: Value) => normaliseInt(floorDiv(toTimestamp(t).epochNs, div));
  simpleMethod(`ts_unix${suffix}`, impl);
  simpleMethod(`format_timestamp_unix${suffix}`, impl);
}

// Arithmetic -----------------------------------------------------------------

method('ts_tz', [p.str('tz')], (t, a) => new Timestamp(toTimestamp(t).epochNs, resolveZone(argString(a, 0))));

method('ts_sub', [p.ts('t2')], (t, a) => {
  const diff = toTimestamp(t).epochNs - toTimestamp(a[0] as Value).epochNs;
  return normaliseInt(diff);
});

/** Go's zero time (year 1) is the origin of Time.Round, not the Unix epoch. */
const GO_ZERO_OFFSET_NS = 62_135_596_800n * NS;

method('ts_round', [p.int('duration')], (t, a) => {
  const ts = toTimestamp(t);
  const d = BigInt(argInt(a, 0, 'duration'));
  if (d <= 0n) return ts;
  const abs = ts.epochNs + GO_ZERO_OFFSET_NS;
  let r = abs % d;
  if (r < 0n) r += d;
  const down = abs - r;
  // Halfway values round up.
  const rounded = r + r < d ? down : down + d;
  return new Timestamp(rounded - GO_ZERO_OFFSET_NS, ts.zone);
});

function addPeriod(ts: Timestamp, text: string, sign: 1 | -1): Timestamp {
  const parts = periodCalendarParts(parsePeriod(text));
  const dated = addDate(ts, sign * parts.years, sign * parts.months, sign * parts.days);
  return new Timestamp(dated.epochNs + BigInt(sign) * parts.rest, ts.zone);
}

method('ts_add_iso8601', [p.str('duration')], (t, a) => addPeriod(toTimestamp(t), argString(a, 0), 1));
method('ts_sub_iso8601', [p.str('duration')], (t, a) => addPeriod(toTimestamp(t), argString(a, 0), -1));

// Durations ------------------------------------------------------------------

simpleMethod('parse_duration', (t) => normaliseInt(parseGoDuration(targetString(t))));

simpleMethod('parse_duration_iso8601', (t) => {
  const ns = periodNanos(parsePeriod(targetString(t)));
  if (ns > 9223372036854775807n || ns < -9223372036854775808n) throw fail('duration overflows int64');
  return normaliseInt(ns);
});
