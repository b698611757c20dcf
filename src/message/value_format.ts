// Numbers and timestamps as the reference prints them (Go's formatting rules).
import type { Timestamp } from './value.js';

/** Number text as the reference prints it (Go JSON float formatting, integers verbatim). */
export function formatNumber(n: number | bigint): string {
  if (typeof n === 'bigint') return n.toString();
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return '+Inf';
  if (n === -Infinity) return '-Inf';
  if (Object.is(n, -0)) return '-0';
  // JS switches to exponent form at the same thresholds as Go's encoding/json (1e21, 1e-6).
  return String(n);
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

const offsetCache = new Map<string, Intl.DateTimeFormat>();

/** Offset of `zone` from UTC in minutes at the given instant. */
export function zoneOffsetMinutes(zone: string, epochMs: number): number {
  if (zone === 'UTC' || zone === 'Z' || zone === '') return 0;
  const fixed = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
  if (fixed) {
    const mins = Number(fixed[2]) * 60 + Number(fixed[3]);
    return fixed[1] === '-' ? -mins : mins;
  }
  let fmt = offsetCache.get(zone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    offsetCache.set(zone, fmt);
  }
  const parts: Record<string, number> = {};
  for (const p of fmt.formatToParts(new Date(epochMs))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const asUtc = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  const floored = Math.floor(epochMs / 1000) * 1000;
  return Math.round((asUtc - floored) / 60000);
}

/** Broken-down wall clock of a timestamp in its own zone. */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  nanosecond: number;
  weekday: number;
  offsetMinutes: number;
}

export function wallClock(ts: Timestamp): WallClock {
  const ns = ts.epochNs;
  let secs = ns / 1_000_000_000n;
  let nanos = ns % 1_000_000_000n;
  if (nanos < 0n) {
    nanos += 1_000_000_000n;
    secs -= 1n;
  }
  const epochMs = Number(secs) * 1000;
  const offset = zoneOffsetMinutes(ts.zone, epochMs);
  const d = new Date(epochMs + offset * 60000);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    nanosecond: Number(nanos),
    weekday: d.getUTCDay(),
    offsetMinutes: offset,
  };
}

/** RFC 3339 with trailing-zero-trimmed nanoseconds (Go's time.RFC3339Nano). */
export function formatTimestamp(ts: Timestamp): string {
  const w = wallClock(ts);
  let out = `${String(w.year).padStart(4, '0')}-${pad2(w.month)}-${pad2(w.day)}T${pad2(w.hour)}:${pad2(w.minute)}:${pad2(w.second)}`;
  if (w.nanosecond !== 0) out += `.${String(w.nanosecond).padStart(9, '0').replace(/0+$/, '')}`;
  if (w.offsetMinutes === 0) return `${out}Z`;
  const abs = Math.abs(w.offsetMinutes);
  return `${out}${w.offsetMinutes < 0 ? '-' : '+'}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
}
