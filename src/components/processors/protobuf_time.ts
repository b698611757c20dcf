// The JSON text of google.protobuf.Timestamp and Duration (proto3 JSON mapping): RFC 3339 in UTC
// and "<seconds>.<fraction>s", the fraction with 0, 3, 6 or 9 digits.

// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z, the range the mapping allows.
const MIN_SECONDS = -62135596800;
const MAX_SECONDS = 253402300799;
const MAX_DURATION_SECONDS = 315576000000;

function fraction(nanos: number): string {
  if (nanos === 0) return '';
  const nine = String(nanos).padStart(9, '0');
  if (nanos % 1_000_000 === 0) return `.${nine.slice(0, 3)}`;
  if (nanos % 1_000 === 0) return `.${nine.slice(0, 6)}`;
  return `.${nine}`;
}

export function formatTimestamp(seconds: number, nanos: number): string {
  if (seconds < MIN_SECONDS || seconds > MAX_SECONDS || nanos < 0 || nanos >= 1e9)
    throw new Error(`invalid google.protobuf.Timestamp value: seconds ${seconds} nanos ${nanos}`);
  const text = new Date(seconds * 1000).toISOString(); // YYYY-MM-DDTHH:MM:SS.000Z
  return `${text.slice(0, 19)}${fraction(nanos)}Z`;
}

const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/;

export function parseTimestamp(text: string): { seconds: number; nanos: number } {
  const m = TIMESTAMP.exec(text);
  if (!m) throw new Error(`invalid google.protobuf.Timestamp value "${text}"`);
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as number[];
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, keeps years below 100 as written.
  date.setUTCFullYear(year!, month! - 1, day);
  date.setUTCHours(hour!, minute, second, 0);
  if (
    date.getUTCMonth() !== month! - 1 ||
    date.getUTCDate() !== day ||
    hour! > 23 ||
    minute! > 59 ||
    second! > 59
  )
    throw new Error(`invalid google.protobuf.Timestamp value "${text}"`);
  let seconds = date.getTime() / 1000;
  const zone = m[8]!;
  if (zone !== 'Z' && zone !== 'z') {
    const offset = Number(zone.slice(1, 3)) * 3600 + Number(zone.slice(4, 6)) * 60;
    seconds += zone.startsWith('+') ? -offset : offset;
  }
  if (seconds < MIN_SECONDS || seconds > MAX_SECONDS)
    throw new Error(`invalid google.protobuf.Timestamp value "${text}"`);
  return { seconds, nanos: Number((m[7] ?? '').padEnd(9, '0')) };
}

export function formatDuration(seconds: number, nanos: number): string {
  if (
    Math.abs(seconds) > MAX_DURATION_SECONDS ||
    Math.abs(nanos) >= 1e9 ||
    (seconds < 0 && nanos > 0) ||
    (seconds > 0 && nanos < 0)
  )
    throw new Error(`invalid google.protobuf.Duration value: seconds ${seconds} nanos ${nanos}`);
  const negative = seconds < 0 || nanos < 0;
  return `${negative ? '-' : ''}${Math.abs(seconds)}${fraction(Math.abs(nanos))}s`;
}

const DURATION = /^(-)?(\d+)(?:\.(\d{1,9}))?s$/;

export function parseDuration(text: string): { seconds: number; nanos: number } {
  const m = DURATION.exec(text);
  if (!m) throw new Error(`invalid google.protobuf.Duration value "${text}"`);
  const sign = m[1] ? -1 : 1;
  const seconds = Number(m[2]);
  if (seconds > MAX_DURATION_SECONDS) throw new Error(`invalid google.protobuf.Duration value "${text}"`);
  // -0 seconds would print as "0": keep the sign on the nanos only.
  return {
    seconds: seconds === 0 ? 0 : sign * seconds,
    nanos: sign * Number((m[3] ?? '').padEnd(9, '0')) || 0,
  };
}
