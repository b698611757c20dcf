// strftime/strptime directives (%Y-%m-%d ...) as the reference's timefmt library reads them.
import { Timestamp } from '../library.js';
import { wallClock } from '../value.js';
import { fail } from './support.js';
import { LONG_DAYS, LONG_MONTHS, SHORT_DAYS, SHORT_MONTHS } from './time_go_layout.js';
import { daysFromCivil, daysIn, fromCivil, zoneAbbreviation, zoneFromOffset } from './time_zone.js';

const pad = (n: number, w: number, c = '0') => String(n).padStart(w, c);

/** Composite directives expanded before formatting or parsing. */
const COMPOSITES: Record<string, string> = {
  c: '%a %b %e %H:%M:%S %Y',
  D: '%m/%d/%y',
  F: '%Y-%m-%d',
  r: '%I:%M:%S %p',
  R: '%H:%M',
  T: '%H:%M:%S',
  x: '%m/%d/%y',
  X: '%H:%M:%S',
  v: '%e-%b-%Y',
};

function isoWeek(year: number, month: number, day: number): [number, number] {
  const days = daysFromCivil(year, month, day);
  const weekday = (((days + 4) % 7) + 7) % 7 || 7; // Monday=1..Sunday=7
  const thursday = days + (4 - weekday);
  const tYear = new Date(thursday * 86400000).getUTCFullYear();
  const week = Math.floor((thursday - daysFromCivil(tYear, 1, 1)) / 7) + 1;
  return [tYear, week];
}

export function formatStrftime(ts: Timestamp, format: string): string {
  const w = wallClock(ts);
  const yday = daysFromCivil(w.year, w.month, w.day) - daysFromCivil(w.year, 1, 1) + 1;
  const h12 = w.hour % 12 === 0 ? 12 : w.hour % 12;
  const offset = w.offsetMinutes;
  let out = '';
  for (let i = 0; i < format.length; i++) {
    const c = format[i];
    if (c !== '%' || i + 1 >= format.length) {
      out += c;
      continue;
    }
    const d = format[++i];
    if (COMPOSITES[d]) {
      out += formatStrftime(ts, COMPOSITES[d]);
      continue;
    }
    switch (d) {
      case 'a':
        out += SHORT_DAYS[w.weekday];
        break;
      case 'A':
        out += LONG_DAYS[w.weekday];
        break;
      case 'b':
      case 'h':
        out += SHORT_MONTHS[w.month - 1];
        break;
      case 'B':
        out += LONG_MONTHS[w.month - 1];
        break;
      case 'C':
        out += pad(Math.floor(w.year / 100), 2);
        break;
      case 'd':
        out += pad(w.day, 2);
        break;
      case 'e':
        out += pad(w.day, 2, ' ');
        break;
      case 'f':
        out += pad(Math.floor(w.nanosecond / 1000), 6);
        break;
      case 'L':
        out += pad(Math.floor(w.nanosecond / 1_000_000), 3);
        break;
      case 'N':
        out += pad(w.nanosecond, 9);
        break;
      case 'g':
        out += pad(isoWeek(w.year, w.month, w.day)[0] % 100, 2);
        break;
      case 'G':
        out += pad(isoWeek(w.year, w.month, w.day)[0], 4);
        break;
      case 'H':
        out += pad(w.hour, 2);
        break;
      case 'I':
        out += pad(h12, 2);
        break;
      case 'j':
        out += pad(yday, 3);
        break;
      case 'k':
        out += pad(w.hour, 2, ' ');
        break;
      case 'l':
        out += pad(h12, 2, ' ');
        break;
      case 'm':
        out += pad(w.month, 2);
        break;
      case 'M':
        out += pad(w.minute, 2);
        break;
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'p':
        out += w.hour >= 12 ? 'PM' : 'AM';
        break;
      case 'P':
        out += w.hour >= 12 ? 'pm' : 'am';
        break;
      case 's':
        out += (ts.epochNs / 1_000_000_000n - (ts.epochNs % 1_000_000_000n < 0n ? 1n : 0n)).toString();
        break;
      case 'S':
        out += pad(w.second, 2);
        break;
      case 'u':
        out += w.weekday === 0 ? 7 : w.weekday;
        break;
      case 'w':
        out += w.weekday;
        break;
      case 'U':
        out += pad(Math.floor((yday + 6 - w.weekday) / 7), 2);
        break;
      case 'W':
        out += pad(Math.floor((yday + 6 - ((w.weekday + 6) % 7)) / 7), 2);
        break;
      case 'V':
        out += pad(isoWeek(w.year, w.month, w.day)[1], 2);
        break;
      case 'y':
        out += pad(w.year % 100, 2);
        break;
      case 'Y':
        out += pad(w.year, 4);
        break;
      case 'z': {
        const abs = Math.abs(offset);
        out += (offset < 0 ? '-' : '+') + pad(Math.floor(abs / 60), 2) + pad(abs % 60, 2);
        break;
      }
      case 'Z': {
        const abbr = zoneAbbreviation(ts.zone, ts.epochNs);
        const abs = Math.abs(offset);
        out += abbr ?? (offset < 0 ? '-' : '+') + pad(Math.floor(abs / 60), 2) + pad(abs % 60, 2);
        break;
      }
      case '%':
        out += '%';
        break;
      default:
        out += `%${d}`;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// Parsing

function expandComposites(format: string): string {
  return format.replace(/%([cDFrRTxXv])/g, (_, d: string) => COMPOSITES[d]);
}

/** Parses `value` with strptime directives; fails like the reference's `failed to parse` errors. */
export function parseStrptime(format: string, value: string): Timestamp {
  const f = {
    year: 1900,
    month: 1,
    day: 1,
    hour: 0,
    min: 0,
    sec: 0,
    nsec: 0,
    pm: -1,
    offset: null as number | null,
  };
  const layout = expandComposites(format);
  let v = 0;
  const problem = (detail: string) =>
    fail(`failed to parse ${JSON.stringify(value)} with ${JSON.stringify(format)}: ${detail}`);
  const num = (maxDigits: number, what: string, allowSpace = false): number => {
    if (allowSpace) while (value[v] === ' ') v++;
    let j = v;
    if (value[j] === '-' || value[j] === '+') j++;
    const start = j;
    while (j < value.length && j - start < maxDigits && value[j] >= '0' && value[j] <= '9') j++;
    if (j === start) throw problem(`cannot parse ${what}`);
    const n = Number(value.slice(v, j));
    v = j;
    return n;
  };
  const name = (names: readonly string[], what: string): number => {
    const rest = value.slice(v).toLowerCase();
    // Longest names first so "June" is not cut to "Jun".
    let best = -1;
    let bestLen = 0;
    names.forEach((n, idx) => {
      if (rest.startsWith(n.toLowerCase()) && n.length > bestLen) {
        best = idx;
        bestLen = n.length;
      }
    });
    if (best < 0) throw problem(`cannot parse ${what}`);
    v += bestLen;
    return best;
  };
  for (let i = 0; i < layout.length; i++) {
    const c = layout[i];
    if (c !== '%' || i + 1 >= layout.length) {
      if (c === ' ' || c === '\t' || c === '\n') {
        while (value[v] === ' ' || value[v] === '\t' || value[v] === '\n') v++;
        continue;
      }
      if (value[v] !== c) throw problem(`expected '${c}'`);
      v++;
      continue;
    }
    const d = layout[++i];
    switch (d) {
      case 'Y':
        f.year = num(4, '%Y');
        break;
      case 'y': {
        const y = num(2, '%y');
        f.year = y >= 69 ? 1900 + y : 2000 + y;
        break;
      }
      case 'C':
        f.year = num(2, '%C') * 100 + (f.year % 100);
        break;
      case 'm':
        f.month = num(2, '%m');
        break;
      case 'd':
        f.day = num(2, '%d');
        break;
      case 'e':
        f.day = num(2, '%e', true);
        break;
      case 'j': {
        const yd = num(3, '%j');
        f.month = 1;
        f.day = yd;
        break;
      }
      case 'H':
        f.hour = num(2, '%H');
        break;
      case 'k':
        f.hour = num(2, '%k', true);
        break;
      case 'I':
        f.hour = num(2, '%I');
        break;
      case 'l':
        f.hour = num(2, '%l', true);
        break;
      case 'M':
        f.min = num(2, '%M');
        break;
      case 'S':
        f.sec = num(2, '%S');
        break;
      case 'f':
      case 'L':
      case 'N': {
        const start = v;
        while (v < value.length && value[v] >= '0' && value[v] <= '9') v++;
        if (v === start) throw problem(`cannot parse %${d}`);
        f.nsec = Number(value.slice(start, v).slice(0, 9).padEnd(9, '0'));
        break;
      }
      case 'b':
      case 'h':
      case 'B':
        f.month = (name([...LONG_MONTHS, ...SHORT_MONTHS], `%${d}`) % 12) + 1;
        break;
      case 'a':
      case 'A':
        name([...LONG_DAYS, ...SHORT_DAYS], `%${d}`);
        break;
      case 'u':
      case 'w':
        num(1, `%${d}`);
        break;
      case 'U':
      case 'W':
      case 'V':
        num(2, `%${d}`);
        break;
      case 'p':
      case 'P': {
        const s = value.slice(v, v + 2).toUpperCase();
        if (s !== 'AM' && s !== 'PM') throw problem(`cannot parse %${d}`);
        f.pm = s === 'PM' ? 1 : 0;
        v += 2;
        break;
      }
      case 's': {
        const secs = num(20, '%s');
        const t = new Date(secs * 1000);
        f.year = t.getUTCFullYear();
        f.month = t.getUTCMonth() + 1;
        f.day = t.getUTCDate();
        f.hour = t.getUTCHours();
        f.min = t.getUTCMinutes();
        f.sec = t.getUTCSeconds();
        break;
      }
      case 'z': {
        if (value[v] === 'Z') {
          f.offset = 0;
          v++;
          break;
        }
        const m = /^([+-])(\d\d):?(\d\d)?/.exec(value.slice(v));
        if (!m) throw problem('cannot parse %z');
        const secs = Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60;
        f.offset = m[1] === '-' ? -secs : secs;
        v += m[0].length;
        break;
      }
      case 'Z': {
        const m = /^(?:[A-Za-z]+|[+-]\d\d:?\d\d)/.exec(value.slice(v));
        if (!m) throw problem('cannot parse %Z');
        if (m[0] === 'UTC' || m[0] === 'GMT' || m[0] === 'Z') f.offset = 0;
        v += m[0].length;
        break;
      }
      case 'n':
      case 't':
        while (value[v] === ' ' || value[v] === '\t' || value[v] === '\n') v++;
        break;
      case '%':
        if (value[v] !== '%') throw problem(`expected '%'`);
        v++;
        break;
      default:
        throw problem(`unexpected format: %${d}`);
    }
  }
  if (v < value.length) throw problem(`unparsed string ${JSON.stringify(value.slice(v))}`);
  if (f.pm === 1 && f.hour < 12) f.hour += 12;
  else if (f.pm === 0 && f.hour === 12) f.hour = 0;
  if (f.month < 1 || f.month > 12) throw problem('month out of range');
  if (f.day < 1 || (f.day > daysIn(f.year, f.month) && !(f.month === 1 && f.day <= 366))) {
    throw problem('day out of range');
  }
  const offset = f.offset ?? 0;
  const epochNs =
    fromCivil(f.year, f.month, f.day, f.hour, f.min, f.sec, f.nsec) - BigInt(offset) * 1_000_000_000n;
  return new Timestamp(epochNs, zoneFromOffset(offset));
}
