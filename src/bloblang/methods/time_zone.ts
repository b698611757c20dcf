// Calendar arithmetic and time zones for the time methods (IANA zones through Intl).
import { Timestamp } from '../library.js';
import { wallClock, zoneOffsetMinutes } from '../value.js';
import { fail } from './support.js';

const NS_PER_SEC = 1_000_000_000n;

export function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function daysIn(year: number, month: number): number {
  return month === 2 && isLeap(year) ? 29 : MONTH_DAYS[month - 1];
}

/** Days since 1970-01-01 of a proleptic Gregorian date; months/days may overflow like Go's Date. */
export function daysFromCivil(y: number, m: number, d: number): number {
  // Normalise the month first so that e.g. month 13 rolls into the next year.
  const m0 = m - 1;
  y += Math.floor(m0 / 12);
  m = (((m0 % 12) + 12) % 12) + 1;
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Nanoseconds since the epoch of a UTC wall clock (fields may overflow). */
export function fromCivil(
  year: number,
  month: number,
  day: number,
  hour: number,
  min: number,
  sec: number,
  nsec: number,
): bigint {
  const days = daysFromCivil(year, month, day);
  const secs = BigInt(days) * 86400n + BigInt(hour * 3600 + min * 60 + sec);
  return secs * NS_PER_SEC + BigInt(nsec);
}

/** Zone name for a fixed offset in seconds; zero is UTC. */
export function zoneFromOffset(offsetSeconds: number): string {
  if (offsetSeconds === 0) return 'UTC';
  const sign = offsetSeconds < 0 ? '-' : '+';
  const abs = Math.abs(offsetSeconds);
  const h = String(Math.floor(abs / 3600)).padStart(2, '0');
  const m = String(Math.floor((abs % 3600) / 60)).padStart(2, '0');
  return `${sign}${h}:${m}`;
}

const validZones = new Map<string, string>();

/** Checks an IANA zone name the way Go's time.LoadLocation accepts it. */
export function resolveZone(name: string): string {
  if (name === '' || name === 'UTC' || name === 'Local') return 'UTC';
  const known = validZones.get(name);
  if (known) return known;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
  } catch {
    throw fail(`unknown time zone ${name}`);
  }
  validZones.set(name, name);
  return name;
}

const abbrFormats = new Map<string, Intl.DateTimeFormat>();

/** Zone abbreviation as Go's MST element prints it, or null when only an offset is known. */
export function zoneAbbreviation(zone: string, epochNs: bigint): string | null {
  if (zone === 'UTC') return 'UTC';
  if (/^[+-]\d\d:\d\d$/.test(zone)) return null;
  let fmt = abbrFormats.get(zone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' });
    abbrFormats.set(zone, fmt);
  }
  const ms = Number(epochNs / 1_000_000n);
  const part = fmt.formatToParts(new Date(ms)).find((p) => p.type === 'timeZoneName');
  if (!part || part.value.startsWith('GMT')) return part?.value === 'GMT' ? 'GMT' : null;
  return part.value;
}

/** Adds calendar years/months/days to a timestamp in its own zone, like Go's AddDate. */
export function addDate(ts: Timestamp, years: number, months: number, days: number): Timestamp {
  const w = wallClock(ts);
  const local = fromCivil(
    w.year + years,
    w.month + months,
    w.day + days,
    w.hour,
    w.minute,
    w.second,
    w.nanosecond,
  );
  return new Timestamp(localToEpoch(local, ts.zone), ts.zone);
}

/** Converts nanoseconds of a local wall clock in `zone` to epoch nanoseconds. */
export function localToEpoch(localNs: bigint, zone: string): bigint {
  const guessMs = Number(localNs / 1_000_000n);
  let offset = zoneOffsetMinutes(zone, guessMs);
  let epoch = localNs - BigInt(offset) * 60n * NS_PER_SEC;
  // A second pass settles instants near a daylight-saving change.
  const again = zoneOffsetMinutes(zone, Number(epoch / 1_000_000n));
  if (again !== offset) {
    offset = again;
    epoch = localNs - BigInt(offset) * 60n * NS_PER_SEC;
  }
  return epoch;
}
