// One file (over 400 lines): Go's layout tokeniser, formatter and parser share one token table and must change together.
// Go reference-time layouts ("2006-01-02T15:04:05Z07:00"): formatting and parsing with the
// error texts of Go's time package. Layouts are tokenised once and cached.
import { Timestamp } from '../library.js';
import { wallClock } from '../value.js';
import { fail } from './support.js';
import { daysIn, fromCivil, zoneAbbreviation, zoneFromOffset } from './time_zone.js';

export const RFC3339_NANO = '2006-01-02T15:04:05.999999999Z07:00';

type Std =
  | 'LongMonth'
  | 'Month'
  | 'NumMonth'
  | 'ZeroMonth'
  | 'LongWeekDay'
  | 'WeekDay'
  | 'Day'
  | 'UnderDay'
  | 'ZeroDay'
  | 'UnderYearDay'
  | 'ZeroYearDay'
  | 'Hour'
  | 'Hour12'
  | 'ZeroHour12'
  | 'Minute'
  | 'ZeroMinute'
  | 'Second'
  | 'ZeroSecond'
  | 'LongYear'
  | 'Year'
  | 'PM'
  | 'pm'
  | 'TZ'
  | 'ISO8601TZ'
  | 'ISO8601SecondsTZ'
  | 'ISO8601ShortTZ'
  | 'ISO8601ColonTZ'
  | 'ISO8601ColonSecondsTZ'
  | 'NumTZ'
  | 'NumSecondsTz'
  | 'NumShortTZ'
  | 'NumColonTZ'
  | 'NumColonSecondsTZ'
  | 'Frac0'
  | 'Frac9';

interface Chunk {
  literal: string;
  std?: Std;
  /** The layout text of the element, shown in parse errors. */
  text: string;
  /** Digits of a fractional-second element. */
  digits?: number;
}

const LONG_MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const SHORT_MONTHS = LONG_MONTHS.map((m) => m.slice(0, 3));
const LONG_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const SHORT_DAYS = LONG_DAYS.map((d) => d.slice(0, 3));

export { LONG_DAYS, LONG_MONTHS, SHORT_DAYS, SHORT_MONTHS };

const TZ_FORMS: Array<[string, Std]> = [
  ['070000', 'NumSecondsTz'],
  ['07:00:00', 'NumColonSecondsTZ'],
  ['0700', 'NumTZ'],
  ['07:00', 'NumColonTZ'],
  ['07', 'NumShortTZ'],
];
const ISO_OF: Record<string, Std> = {
  NumSecondsTz: 'ISO8601SecondsTZ',
  NumColonSecondsTZ: 'ISO8601ColonSecondsTZ',
  NumTZ: 'ISO8601TZ',
  NumColonTZ: 'ISO8601ColonTZ',
  NumShortTZ: 'ISO8601ShortTZ',
};

/** Finds the next layout element at or after `i`: [start, length, std, digits]. */
function nextStd(l: string, from: number): [number, number, Std, number?] | null {
  for (let i = from; i < l.length; i++) {
    const c = l[i];
    const rest = l.slice(i);
    switch (c) {
      case 'J':
        if (rest.startsWith('January')) return [i, 7, 'LongMonth'];
        if (rest.startsWith('Jan')) return [i, 3, 'Month'];
        break;
      case 'M':
        if (rest.startsWith('Monday')) return [i, 6, 'LongWeekDay'];
        if (rest.startsWith('Mon')) return [i, 3, 'WeekDay'];
        if (rest.startsWith('MST')) return [i, 3, 'TZ'];
        break;
      case '0':
        if (rest.startsWith('002')) return [i, 3, 'ZeroYearDay'];
        if (l[i + 1] >= '1' && l[i + 1] <= '6') {
          const std = (['ZeroMonth', 'ZeroDay', 'ZeroHour12', 'ZeroMinute', 'ZeroSecond', 'Year'] as Std[])[
            Number(l[i + 1]) - 1
          ];
          return [i, 2, std];
        }
        break;
      case '1':
        if (rest.startsWith('15')) return [i, 2, 'Hour'];
        return [i, 1, 'NumMonth'];
      case '2':
        if (rest.startsWith('2006')) return [i, 4, 'LongYear'];
        return [i, 1, 'Day'];
      case '_':
        if (l[i + 1] === '2') {
          // "_2006" is a literal underscore followed by a year.
          if (rest.startsWith('_2006')) return [i + 1, 4, 'LongYear'];
          return [i, 2, 'UnderDay'];
        }
        if (rest.startsWith('__2')) return [i, 3, 'UnderYearDay'];
        break;
      case '3':
        return [i, 1, 'Hour12'];
      case '4':
        return [i, 1, 'Minute'];
      case '5':
        return [i, 1, 'Second'];
      case 'P':
        if (l[i + 1] === 'M') return [i, 2, 'PM'];
        break;
      case 'p':
        if (l[i + 1] === 'm') return [i, 2, 'pm'];
        break;
      case '-':
        for (const [form, std] of TZ_FORMS) if (rest.startsWith(`-${form}`)) return [i, form.length + 1, std];
        break;
      case 'Z':
        for (const [form, std] of TZ_FORMS)
          if (rest.startsWith(`Z${form}`)) return [i, form.length + 1, ISO_OF[std]];
        break;
      case '.':
      case ',':
        if (l[i + 1] === '0' || l[i + 1] === '9') {
          const d = l[i + 1];
          let j = i + 1;
          while (j < l.length && l[j] === d) j++;
          if (!(l[j] >= '0' && l[j] <= '9')) return [i, j - i, d === '0' ? 'Frac0' : 'Frac9', j - i - 1];
        }
        break;
    }
  }
  return null;
}

const layoutCache = new Map<string, Chunk[]>();

function tokenise(layout: string): Chunk[] {
  const cached = layoutCache.get(layout);
  if (cached) return cached;
  const chunks: Chunk[] = [];
  let pos = 0;
  for (;;) {
    const found = nextStd(layout, pos);
    if (!found) {
      if (pos < layout.length) chunks.push({ literal: layout.slice(pos), text: layout.slice(pos) });
      break;
    }
    const [start, len, std, digits] = found;
    if (start > pos) chunks.push({ literal: layout.slice(pos, start), text: layout.slice(pos, start) });
    chunks.push({ literal: '', std, text: layout.slice(start, start + len), digits });
    pos = start + len;
  }
  if (layoutCache.size > 500) layoutCache.clear();
  layoutCache.set(layout, chunks);
  return chunks;
}

const pad = (n: number, w: number, c = '0') => String(n).padStart(w, c);

function formatOffset(offsetSeconds: number, colon: boolean, withSeconds: boolean, short: boolean): string {
  const sign = offsetSeconds < 0 ? '-' : '+';
  const abs = Math.abs(offsetSeconds);
  const h = Math.floor(abs / 3600);
  const m = Math.floor((abs % 3600) / 60);
  const s = abs % 60;
  let out = sign + pad(h, 2);
  if (short) return out;
  out += (colon ? ':' : '') + pad(m, 2);
  if (withSeconds) out += (colon ? ':' : '') + pad(s, 2);
  return out;
}

/** Formats a timestamp with a Go layout, in the timestamp's own zone. */
export function formatGoLayout(ts: Timestamp, layout: string): string {
  const w = wallClock(ts);
  const offsetSeconds = w.offsetMinutes * 60;
  let out = '';
  for (const ch of tokenise(layout)) {
    if (!ch.std) {
      out += ch.literal;
      continue;
    }
    switch (ch.std) {
      case 'LongYear':
        out += w.year < 0 ? `-${pad(-w.year, 4)}` : pad(w.year, 4);
        break;
      case 'Year':
        out += pad(((w.year % 100) + 100) % 100, 2);
        break;
      case 'LongMonth':
        out += LONG_MONTHS[w.month - 1];
        break;
      case 'Month':
        out += SHORT_MONTHS[w.month - 1];
        break;
      case 'NumMonth':
        out += w.month;
        break;
      case 'ZeroMonth':
        out += pad(w.month, 2);
        break;
      case 'LongWeekDay':
        out += LONG_DAYS[w.weekday];
        break;
      case 'WeekDay':
        out += SHORT_DAYS[w.weekday];
        break;
      case 'Day':
        out += w.day;
        break;
      case 'UnderDay':
        out += pad(w.day, 2, ' ');
        break;
      case 'ZeroDay':
        out += pad(w.day, 2);
        break;
      case 'UnderYearDay':
        out += pad(yearDay(w.year, w.month, w.day), 3, ' ');
        break;
      case 'ZeroYearDay':
        out += pad(yearDay(w.year, w.month, w.day), 3);
        break;
      case 'Hour':
        out += pad(w.hour, 2);
        break;
      case 'Hour12':
        out += w.hour % 12 === 0 ? 12 : w.hour % 12;
        break;
      case 'ZeroHour12':
        out += pad(w.hour % 12 === 0 ? 12 : w.hour % 12, 2);
        break;
      case 'Minute':
        out += w.minute;
        break;
      case 'ZeroMinute':
        out += pad(w.minute, 2);
        break;
      case 'Second':
        out += w.second;
        break;
      case 'ZeroSecond':
        out += pad(w.second, 2);
        break;
      case 'PM':
        out += w.hour >= 12 ? 'PM' : 'AM';
        break;
      case 'pm':
        out += w.hour >= 12 ? 'pm' : 'am';
        break;
      case 'TZ': {
        const abbr = zoneAbbreviation(ts.zone, ts.epochNs);
        out += abbr ?? formatOffset(offsetSeconds, false, false, false);
        break;
      }
      case 'ISO8601TZ':
      case 'ISO8601SecondsTZ':
      case 'ISO8601ShortTZ':
      case 'ISO8601ColonTZ':
      case 'ISO8601ColonSecondsTZ':
      case 'NumTZ':
      case 'NumSecondsTz':
      case 'NumShortTZ':
      case 'NumColonTZ':
      case 'NumColonSecondsTZ': {
        const std = ch.std;
        if (offsetSeconds === 0 && std.startsWith('ISO8601')) {
          out += 'Z';
          break;
        }
        out += formatOffset(
          offsetSeconds,
          std.includes('Colon'),
          std.includes('Seconds'),
          std === 'NumShortTZ' || std === 'ISO8601ShortTZ',
        );
        break;
      }
      case 'Frac0':
      case 'Frac9': {
        const digits = pad(w.nanosecond, 9).slice(0, ch.digits);
        const sep = ch.text[0];
        if (ch.std === 'Frac0') out += sep + digits;
        else {
          const trimmed = digits.replace(/0+$/, '');
          if (trimmed) out += sep + trimmed;
        }
        break;
      }
    }
  }
  return out;
}

function yearDay(year: number, month: number, day: number): number {
  let n = day;
  for (let m = 1; m < month; m++) n += daysIn(year, m);
  return n;
}

// ---------------------------------------------------------------------------
// Parsing

class ParseFailure {
  constructor(
    readonly rest: string,
    readonly element: string,
    readonly message = '',
  ) {}
}

function quote(s: string): string {
  return JSON.stringify(s);
}

function lookupName(names: readonly string[], value: string): [number, string] | null {
  for (let i = 0; i < names.length; i++) {
    const n = names[i];
    if (value.length >= n.length && value.slice(0, n.length).toLowerCase() === n.toLowerCase()) {
      return [i, value.slice(n.length)];
    }
  }
  return null;
}

/** Reads 1-2 digits (exactly 2 when `fixed`). */
function getNum(value: string, fixed: boolean): [number, string] | null {
  if (!isDigit(value, 0)) return null;
  if (!isDigit(value, 1)) {
    if (fixed) return null;
    return [Number(value[0]), value.slice(1)];
  }
  return [Number(value.slice(0, 2)), value.slice(2)];
}

function getNum3(value: string, fixed: boolean): [number, string] | null {
  let i = 0;
  while (i < 3 && isDigit(value, i)) i++;
  if (i === 0 || (fixed && i !== 3)) return null;
  return [Number(value.slice(0, i)), value.slice(i)];
}

const isDigit = (s: string, i: number) => i < s.length && s[i] >= '0' && s[i] <= '9';

/** Parses `value` with a Go layout. Throws the reference's `parsing time ...` errors. */
export function parseGoLayout(layout: string, value: string): Timestamp {
  const original = value;
  const fields = {
    year: 1,
    month: -1,
    day: -1,
    yday: -1,
    hour: 0,
    min: 0,
    sec: 0,
    nsec: 0,
    pmSet: false,
    amSet: false,
    offset: null as number | null,
    utc: false,
    zoneName: '',
  };
  const chunks = tokenise(layout);
  const err = (rest: string, element: string, message = '') => {
    if (message) return fail(`parsing time ${quote(original)}${message}`);
    return fail(
      `parsing time ${quote(original)} as ${quote(layout)}: cannot parse ${quote(rest)} as ${quote(element)}`,
    );
  };
  try {
    for (let ci = 0; ci < chunks.length; ci++) {
      const ch = chunks[ci];
      if (!ch.std) {
        const lit = ch.literal;
        // Go skips spaces in both the layout and the value together.
        let v = value;
        let l = lit;
        while (l.length > 0) {
          if (l[0] === ' ') {
            if (v.length > 0 && v[0] !== ' ') throw new ParseFailure(value, lit);
            l = l.replace(/^ +/, '');
            v = v.replace(/^ +/, '');
            continue;
          }
          if (v.length === 0 || v[0] !== l[0]) throw new ParseFailure(value, lit);
          v = v.slice(1);
          l = l.slice(1);
        }
        value = v;
        continue;
      }
      const hold = value;
      const std = ch.std;
      let r: [number, string] | null = null;
      switch (std) {
        case 'Year': {
          if (value.length < 2 || !isDigit(value, 0) || !isDigit(value, 1))
            throw new ParseFailure(hold, ch.text);
          const y = Number(value.slice(0, 2));
          fields.year = y >= 69 ? 1900 + y : 2000 + y;
          value = value.slice(2);
          break;
        }
        case 'LongYear': {
          if (value.length < 4 || ![0, 1, 2, 3].every((i) => isDigit(value, i))) {
            throw new ParseFailure(hold, ch.text);
          }
          fields.year = Number(value.slice(0, 4));
          value = value.slice(4);
          break;
        }
        case 'Month':
        case 'LongMonth':
          r = lookupName(std === 'Month' ? SHORT_MONTHS : LONG_MONTHS, value);
          if (!r) throw new ParseFailure(hold, ch.text);
          fields.month = r[0] + 1;
          value = r[1];
          break;
        case 'NumMonth':
        case 'ZeroMonth':
          r = getNum(value, std === 'ZeroMonth');
          if (!r) throw new ParseFailure(hold, ch.text);
          if (r[0] <= 0 || r[0] > 12) throw new ParseFailure(hold, ch.text, ': month out of range');
          fields.month = r[0];
          value = r[1];
          break;
        case 'WeekDay':
        case 'LongWeekDay':
          r = lookupName(std === 'WeekDay' ? SHORT_DAYS : LONG_DAYS, value);
          if (!r) throw new ParseFailure(hold, ch.text);
          value = r[1];
          break;
        case 'Day':
        case 'UnderDay':
        case 'ZeroDay':
          if (std === 'UnderDay' && value[0] === ' ') value = value.slice(1);
          r = getNum(value, std === 'ZeroDay');
          if (!r) throw new ParseFailure(hold, ch.text);
          fields.day = r[0];
          value = r[1];
          break;
        case 'UnderYearDay':
        case 'ZeroYearDay':
          if (std === 'UnderYearDay') value = value.replace(/^ {1,2}/, '');
          r = getNum3(value, std === 'ZeroYearDay');
          if (!r) throw new ParseFailure(hold, ch.text);
          fields.yday = r[0];
          value = r[1];
          break;
        case 'Hour':
          r = getNum(value, false);
          if (!r || r[0] > 23) throw new ParseFailure(hold, ch.text, r ? ': hour out of range' : '');
          fields.hour = r[0];
          value = r[1];
          break;
        case 'Hour12':
        case 'ZeroHour12':
          r = getNum(value, std === 'ZeroHour12');
          if (!r || r[0] > 12) throw new ParseFailure(hold, ch.text, r ? ': hour out of range' : '');
          fields.hour = r[0];
          value = r[1];
          break;
        case 'Minute':
        case 'ZeroMinute':
          r = getNum(value, std === 'ZeroMinute');
          if (!r || r[0] > 59) throw new ParseFailure(hold, ch.text, r ? ': minute out of range' : '');
          fields.min = r[0];
          value = r[1];
          break;
        case 'Second':
        case 'ZeroSecond': {
          r = getNum(value, std === 'ZeroSecond');
          if (!r || r[0] > 59) throw new ParseFailure(hold, ch.text, r ? ': second out of range' : '');
          fields.sec = r[0];
          value = r[1];
          // A fractional second in the value is accepted even when the layout has none.
          const next = chunks[ci + 1];
          if (
            value.length >= 2 &&
            (value[0] === '.' || value[0] === ',') &&
            isDigit(value, 1) &&
            !(next?.std === 'Frac0' || next?.std === 'Frac9')
          ) {
            let j = 1;
            while (isDigit(value, j)) j++;
            fields.nsec = fracToNanos(value.slice(1, j));
            value = value.slice(j);
          }
          break;
        }
        case 'PM':
        case 'pm': {
          const p = value.slice(0, 2);
          const want = std === 'PM' ? ['PM', 'AM'] : ['pm', 'am'];
          if (p === want[0]) fields.pmSet = true;
          else if (p === want[1]) fields.amSet = true;
          else throw new ParseFailure(hold, ch.text);
          value = value.slice(2);
          break;
        }
        case 'Frac0': {
          const n = (ch.digits ?? 0) + 1;
          if (value.length < n || value[0] !== ch.text[0]) throw new ParseFailure(hold, ch.text);
          const digits = value.slice(1, n);
          if (!/^\d*$/.test(digits)) throw new ParseFailure(hold, ch.text);
          fields.nsec = fracToNanos(digits);
          value = value.slice(n);
          break;
        }
        case 'Frac9': {
          if (value.length < 2 || !(value[0] === '.' || value[0] === ',') || !isDigit(value, 1)) break;
          let j = 1;
          while (j < 10 && isDigit(value, j)) j++;
          fields.nsec = fracToNanos(value.slice(1, j));
          value = value.slice(j);
          break;
        }
        case 'TZ': {
          if (value.startsWith('UTC')) {
            fields.utc = true;
            value = value.slice(3);
            break;
          }
          const m = /^(GMT[+-]\d{1,2}|[A-Z]{3,5}|[A-Z][a-z]{2,4}T)/.exec(value);
          if (!m) throw new ParseFailure(hold, ch.text);
          const gmt = /^GMT([+-])(\d+)$/.exec(m[1]);
          if (gmt) fields.offset = (gmt[1] === '-' ? -1 : 1) * Number(gmt[2]) * 3600;
          else fields.zoneName = m[1];
          value = value.slice(m[1].length);
          break;
        }
        default: {
          // Numeric zone offsets, with Z meaning UTC for the ISO 8601 forms.
          if (std.startsWith('ISO8601') && value[0] === 'Z') {
            fields.utc = true;
            value = value.slice(1);
            break;
          }
          const colon = std.includes('Colon');
          const secs = std.includes('Seconds');
          const short = std.endsWith('ShortTZ');
          const re = short
            ? /^([+-])(\d\d)/
            : colon
              ? secs
                ? /^([+-])(\d\d):(\d\d):(\d\d)/
                : /^([+-])(\d\d):(\d\d)/
              : secs
                ? /^([+-])(\d\d)(\d\d)(\d\d)/
                : /^([+-])(\d\d)(\d\d)/;
          const m = re.exec(value);
          if (!m) throw new ParseFailure(hold, ch.text);
          const total = Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
          fields.offset = m[1] === '-' ? -total : total;
          value = value.slice(m[0].length);
        }
      }
    }
  } catch (e) {
    if (e instanceof ParseFailure) throw err(e.rest, e.element, e.message);
    throw e;
  }
  if (value.length > 0) throw err('', '', `: extra text: ${quote(value)}`);
  if (fields.pmSet && fields.hour < 12) fields.hour += 12;
  else if (fields.amSet && fields.hour === 12) fields.hour = 0;
  if (fields.yday >= 0) {
    let m = 1;
    let d = fields.yday;
    while (m <= 12 && d > daysIn(fields.year, m)) d -= daysIn(fields.year, m++);
    if (m > 12 || d < 1) throw err('', '', ': day-of-year out of range');
    if (fields.month < 0) fields.month = m;
    if (fields.day < 0) fields.day = d;
  }
  if (fields.month < 0) fields.month = 1;
  if (fields.day < 0) fields.day = 1;
  if (fields.day > daysIn(fields.year, fields.month)) throw err('', '', ': day out of range');
  const offset = fields.utc ? 0 : (fields.offset ?? 0);
  const epochNs =
    fromCivil(fields.year, fields.month, fields.day, fields.hour, fields.min, fields.sec, fields.nsec) -
    BigInt(offset) * 1_000_000_000n;
  const zone = fields.utc || fields.offset === null ? 'UTC' : zoneFromOffset(offset);
  return new Timestamp(epochNs, zone);
}

function fracToNanos(digits: string): number {
  return Number(digits.slice(0, 9).padEnd(9, '0'));
}
