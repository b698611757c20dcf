// A subset of Go's fmt.Sprintf for the `format` method: the common verbs, flags, width and
// precision, with Go's renderings of Bloblang values (%v of arrays is `[a b]`, of objects `map[k:v]`).
import { JsonNumber, Timestamp, type Value } from '../library.js';
import { checkSize, MAX_GENERATED_LENGTH } from '../limits.js';
import { bytesToString, formatNumber, isObject } from '../value.js';
import { formatGoLayout } from './time_go_layout.js';

interface Spec {
  minus: boolean;
  plus: boolean;
  sharp: boolean;
  space: boolean;
  zero: boolean;
  width?: number;
  prec?: number;
}

const isInt = (v: unknown): v is number | bigint =>
  typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v) && Math.abs(v) < 2 ** 63);

function goTypeName(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (isInt(v)) return 'int64';
  if (typeof v === 'number') return 'float64';
  if (v instanceof JsonNumber) return 'json.Number';
  if (v instanceof Uint8Array) return '[]uint8';
  if (v instanceof Timestamp) return 'time.Time';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

/** Go's strconv 'g' with the shortest representation (exponent from 21 digits for %v). */
function shortestG(n: number, expLimit: number): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'NaN' : n > 0 ? '+Inf' : '-Inf';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mant, expStr] = n.toExponential().split('e');
  const exp = Number(expStr);
  if (exp < -4 || exp >= expLimit) {
    const e = Math.abs(exp);
    return `${mant}e${exp < 0 ? '-' : '+'}${e < 10 ? `0${e}` : e}`;
  }
  return n.toFixed(Math.max(0, mant.replace('-', '').replace('.', '').length - 1 - exp));
}

function goExp(n: number, prec: number, upper = false): string {
  const [mant, expStr] = n.toExponential(prec).split('e');
  const exp = Number(expStr);
  const e = Math.abs(exp);
  const s = `${mant}e${exp < 0 ? '-' : '+'}${e < 10 ? `0${e}` : e}`;
  return upper ? s.toUpperCase() : s;
}

/** Go's strconv.Quote. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    switch (ch) {
      case '"':
        out += '\\"';
        continue;
      case '\\':
        out += '\\\\';
        continue;
      case '\n':
        out += '\\n';
        continue;
      case '\r':
        out += '\\r';
        continue;
      case '\t':
        out += '\\t';
        continue;
      case '\x07':
        out += '\\a';
        continue;
      case '\b':
        out += '\\b';
        continue;
      case '\f':
        out += '\\f';
        continue;
      case '\v':
        out += '\\v';
        continue;
    }
    if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else if (c === 0xfffd && ch !== '\ufffd') out += '\\ufffd';
    else if ((c >= 0x80 && c < 0xa0) || c === 0xad || (c >= 0x2028 && c <= 0x2029))
      out += c > 0xffff ? `\\U${c.toString(16).padStart(8, '0')}` : `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** %v rendering of a value, nested or not. */
export function goValue(v: unknown, nested = false): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return isInt(v) ? formatNumber(v) : shortestG(v, 21);
  if (v instanceof JsonNumber) return v.text;
  if (v instanceof Uint8Array) return `[${Array.from(v).join(' ')}]`;
  if (v instanceof Timestamp) return formatGoLayout(v, '2006-01-02 15:04:05.999999999 -0700 MST');
  if (Array.isArray(v)) return `[${v.map((e) => goValue(e, true)).join(' ')}]`;
  if (isObject(v)) {
    const keys = Object.keys(v).sort();
    return `map[${keys.map((k) => `${k}:${goValue(v[k], true)}`).join(' ')}]`;
  }
  return nested ? String(v) : String(v);
}

function pad(s: string, spec: Spec, numeric: boolean): string {
  if (spec.width === undefined || s.length >= spec.width) return s;
  if (spec.minus) return s.padEnd(spec.width, ' ');
  if (spec.zero && numeric) {
    const sign = /^[+\- ]/.test(s) ? s[0] : '';
    return sign + s.slice(sign.length).padStart(spec.width - sign.length, '0');
  }
  return s.padStart(spec.width, ' ');
}

function withSign(s: string, n: number | bigint, spec: Spec): string {
  const negative = typeof n === 'bigint' ? n < 0n : n < 0 || Object.is(n, -0);
  if (negative) return s;
  if (spec.plus) return `+${s}`;
  if (spec.space) return ` ${s}`;
  return s;
}

function bad(verb: string, v: unknown): string {
  if (v === null || v === undefined) return `%!${verb}(<nil>)`;
  return `%!${verb}(${goTypeName(v)}=${goValue(v)})`;
}

function formatInteger(n: number | bigint, verb: string, spec: Spec): string {
  const b = BigInt(n);
  const abs = b < 0n ? -b : b;
  let digits: string;
  switch (verb) {
    case 'b':
      digits = abs.toString(2);
      break;
    case 'o':
    case 'O':
      digits = abs.toString(8);
      if (verb === 'O') digits = `0o${digits}`;
      else if (spec.sharp) digits = `0${digits}`;
      break;
    case 'x':
      digits = abs.toString(16);
      if (spec.sharp) digits = `0x${digits}`;
      break;
    case 'X':
      digits = abs.toString(16).toUpperCase();
      if (spec.sharp) digits = `0X${digits}`;
      break;
    case 'c':
      return pad(String.fromCodePoint(Number(b)), spec, false);
    case 'q':
      return pad(`'${String.fromCodePoint(Number(b))}'`, spec, false);
    case 'U':
      return pad(`U+${abs.toString(16).toUpperCase().padStart(4, '0')}`, spec, false);
    default:
      digits = abs.toString(10);
  }
  if (spec.prec !== undefined) digits = digits.padStart(spec.prec, '0');
  return pad(withSign(b < 0n ? `-${digits}` : digits, b, spec), spec, spec.prec === undefined);
}

function formatFloat(n: number, verb: string, spec: Spec): string {
  let s: string;
  if (!Number.isFinite(n)) {
    s = Number.isNaN(n) ? 'NaN' : n > 0 ? '+Inf' : '-Inf';
    if (n === Infinity && !spec.plus) s = spec.space ? ' Inf' : '+Inf';
    return pad(s, { ...spec, zero: false }, false);
  }
  switch (verb) {
    case 'e':
    case 'E':
      s = goExp(n, spec.prec ?? 6, verb === 'E');
      break;
    case 'f':
    case 'F':
      s = n.toFixed(spec.prec ?? 6);
      if (Math.abs(n) >= 1e21)
        s = BigInt(Math.trunc(n)).toString() + (spec.prec === 0 ? '' : `.${'0'.repeat(spec.prec ?? 6)}`);
      break;
    case 'g':
    case 'G':
    case 'v':
      if (spec.prec === undefined) s = shortestG(n, verb === 'v' ? 21 : 21);
      else {
        const p = spec.prec === 0 ? 1 : spec.prec;
        const exp = n === 0 ? 0 : Math.floor(Math.log10(Math.abs(n)));
        s = exp < -4 || exp >= p ? goExp(n, p - 1).replace(/\.?0+e/, 'e') : String(Number(n.toPrecision(p)));
      }
      if (verb === 'G') s = s.toUpperCase();
      break;
    case 'x':
    case 'X':
      return bad(verb, n);
    default:
      return bad(verb, n);
  }
  return pad(withSign(s, n, spec), spec, true);
}

function formatOne(verb: string, v: unknown, spec: Spec): string {
  if (verb === 'T') return pad(goTypeName(v), spec, false);
  if (typeof v === 'boolean') {
    if (verb === 'v' || verb === 't') return pad(v ? 'true' : 'false', spec, false);
    return bad(verb, v);
  }
  if (
    isInt(v) &&
    verb !== 'e' &&
    verb !== 'E' &&
    verb !== 'f' &&
    verb !== 'F' &&
    verb !== 'g' &&
    verb !== 'G'
  ) {
    if (verb === 'v' || verb === 'd') return formatInteger(v, 'd', spec);
    if ('boOxXcqU'.includes(verb)) return formatInteger(v, verb, spec);
    return bad(verb, v);
  }
  if (typeof v === 'number' || typeof v === 'bigint') {
    if ('eEfFgGv'.includes(verb)) return formatFloat(Number(v), verb, spec);
    return bad(verb, v);
  }
  if (typeof v === 'string' || v instanceof Uint8Array) {
    const s = typeof v === 'string' ? v : bytesToString(v);
    const cut = spec.prec !== undefined ? Array.from(s).slice(0, spec.prec).join('') : s;
    switch (verb) {
      case 'v':
        if (v instanceof Uint8Array) return pad(goValue(v), spec, false);
        return pad(cut, spec, false);
      case 's':
        return pad(cut, spec, false);
      case 'q':
        return pad(goQuote(cut), spec, false);
      case 'x':
      case 'X': {
        let hex = Buffer.from(cut, 'utf8').toString('hex');
        if (verb === 'X') hex = hex.toUpperCase();
        return pad(hex, spec, false);
      }
      default:
        return bad(verb, v);
    }
  }
  if (verb === 'v' || verb === 's') {
    if (v === null || v === undefined) return pad(verb === 'v' ? '<nil>' : '%!s(<nil>)', spec, false);
    return pad(goValue(v), spec, false);
  }
  return bad(verb, v);
}

const FLAGS = '-+# 0';

/** Go's fmt.Sprintf over Bloblang values. */
export function goSprintf(format: string, args: readonly Value[]): string {
  let out = '';
  let argi = 0;
  for (let i = 0; i < format.length; i++) {
    const c = format[i];
    if (c !== '%') {
      out += c;
      continue;
    }
    i++;
    if (i >= format.length) {
      out += '%!(NOVERB)';
      break;
    }
    const spec: Spec = { minus: false, plus: false, sharp: false, space: false, zero: false };
    while (i < format.length && FLAGS.includes(format[i])) {
      const f = format[i++];
      if (f === '-') spec.minus = true;
      else if (f === '+') spec.plus = true;
      else if (f === '#') spec.sharp = true;
      else if (f === ' ') spec.space = true;
      else spec.zero = true;
    }
    const readNum = (): number | undefined => {
      if (format[i] === '*') {
        i++;
        const a = args[argi++];
        return typeof a === 'number' ? a : undefined;
      }
      const start = i;
      while (i < format.length && format[i] >= '0' && format[i] <= '9') i++;
      return i > start ? Number(format.slice(start, i)) : undefined;
    };
    spec.width = readNum();
    if (format[i] === '.') {
      i++;
      spec.prec = readNum() ?? 0;
    }
    // A width or precision is padding allocated up front: bounded like any generated text.
    checkSize('format width', spec.width ?? 0, MAX_GENERATED_LENGTH);
    checkSize('format precision', spec.prec ?? 0, MAX_GENERATED_LENGTH);
    const verb = format[i];
    if (verb === undefined) {
      out += '%!(NOVERB)';
      break;
    }
    if (verb === '%') {
      out += '%';
      continue;
    }
    if (argi >= args.length) {
      out += `%!${verb}(MISSING)`;
      continue;
    }
    out += formatOne(verb, args[argi++], spec);
  }
  if (argi < args.length) {
    out += `%!(EXTRA ${args
      .slice(argi)
      .map((a) => `${goTypeName(a)}=${goValue(a)}`)
      .join(', ')})`;
  }
  return out;
}
