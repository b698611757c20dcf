// One file (over 400 lines): the catalogue of string methods registered together, each a few lines.
// String manipulation methods. Byte targets keep giving bytes where the reference does so.
import type { Value } from '../library.js';
import { checkSize, MAX_GENERATED_LENGTH } from '../limits.js';
import { bytesToString, isObject, stringToBytes, TypeMismatchError, valueToString } from '../value.js';
import { goQuote, goSprintf } from './go_fmt.js';
import { unescapeHtml } from './html_entities.js';
import {
  argBool,
  argInt,
  argOptString,
  argString,
  fail,
  method,
  p,
  restArgs,
  simpleMethod,
  stringTransform,
  targetString,
} from './support.js';

/** Non-ASCII text is cased one code point at a time below; ASCII takes the fast path. */
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * Go's strings.ToUpper/ToLower map each code point to one code point (Unicode's simple case
 * mapping): `ß` stays `ß`, `ﬁ` stays `ﬁ`, `İ` lowers to `i`. JavaScript's full mapping would
 * make `SS`, `FI` and `i̇`, changing lengths and bytes.
 */
function goCase(s: string, upper: boolean): string {
  if (!NON_ASCII.test(s)) return upper ? s.toUpperCase() : s.toLowerCase();
  let out = '';
  for (const ch of s) {
    const mapped = upper ? ch.toUpperCase() : ch.toLowerCase();
    if (mapped.length === ch.length || [...mapped].length === 1) out += mapped;
    else if (!upper && ch === '\u0130') out += 'i';
    else out += ch;
  }
  return out;
}

stringTransform('uppercase', (s) => goCase(s, true));
stringTransform('lowercase', (s) => goCase(s, false));

/** Go's strings.Title: upper-cases letters that start a word. */
function title(s: string): string {
  let out = '';
  let prevSeparator = true;
  for (const ch of s) {
    out += prevSeparator ? ch.toUpperCase() : ch;
    prevSeparator = isSeparator(ch);
  }
  return out;
}

function isSeparator(ch: string): boolean {
  const c = ch.codePointAt(0)!;
  if (c <= 0x7f) {
    if (/[0-9A-Za-z_]/.test(ch)) return false;
    return true;
  }
  if (/\p{L}|\p{Nd}/u.test(ch)) return false;
  return /\s/u.test(ch);
}

stringTransform('capitalize', title);

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  "'": '&#39;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&#34;',
};
stringTransform('escape_html', (s) => s.replace(/[&'<>"]/g, (c) => HTML_ESCAPES[c]));
stringTransform('unescape_html', unescapeHtml);

/** Percent-encodes like Go's url.QueryEscape / url.PathEscape. */
function urlEscape(s: string, mode: 'query' | 'path'): string {
  let out = '';
  for (const b of stringToBytes(s)) {
    const ch = String.fromCharCode(b);
    if (/[A-Za-z0-9\-_.~]/.test(ch)) out += ch;
    else if (mode === 'path' && '$&+,:;=@'.includes(ch)) out += ch;
    else if (mode === 'query' && ch === ' ') out += '+';
    else out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Reverses percent-encoding; `+` means space only in query mode. */
export function urlUnescape(s: string, mode: 'query' | 'path'): string {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '%') {
      const hex = s.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) {
        throw fail(`invalid URL escape ${JSON.stringify(s.slice(i, i + 3))}`);
      }
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else if (c === '+' && mode === 'query') bytes.push(0x20);
    else for (const b of stringToBytes(c)) bytes.push(b);
  }
  return bytesToString(Uint8Array.from(bytes));
}

stringTransform('escape_url_query', (s) => urlEscape(s, 'query'));
stringTransform('escape_url_path', (s) => urlEscape(s, 'path'));
stringTransform('unescape_url_query', (s) => urlUnescape(s, 'query'));
stringTransform('unescape_url_path', (s) => urlUnescape(s, 'path'));

// Paths ------------------------------------------------------------------------

/** Go's path.Clean. */
export function cleanPath(path: string): string {
  if (path === '') return '.';
  const rooted = path.startsWith('/');
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!rooted) out.push('..');
      continue;
    }
    out.push(seg);
  }
  const joined = out.join('/');
  if (rooted) return `/${joined}`;
  return joined === '' ? '.' : joined;
}

simpleMethod('filepath_join', (t) => {
  if (!Array.isArray(t)) throw new TypeMismatchError(['array'], t);
  const parts = t.map((e, i) => {
    if (typeof e === 'string') return e;
    if (e instanceof Uint8Array) return bytesToString(e);
    throw fail(`path element ${i}: ${new TypeMismatchError(['string'], e).message}`);
  });
  const nonEmpty = parts.filter((s) => s !== '');
  return nonEmpty.length === 0 ? '' : cleanPath(nonEmpty.join('/'));
});

simpleMethod('filepath_split', (t) => {
  const s = targetString(t);
  const i = s.lastIndexOf('/');
  return [s.slice(0, i + 1), s.slice(i + 1)];
});

// Searching --------------------------------------------------------------------

method('has_prefix', [p.str('value')], (t, a) => targetString(t).startsWith(argString(a, 0)));
method('has_suffix', [p.str('value')], (t, a) => targetString(t).endsWith(argString(a, 0)));

/** Byte offset of a substring, as Go's strings.Index reports it. */
method('index_of', [p.str('value')], (t, a) => {
  const s = targetString(t);
  const idx = s.indexOf(argString(a, 0));
  if (idx <= 0) return idx;
  return stringToBytes(s.slice(0, idx)).length;
});

simpleMethod('length', (t) => {
  if (typeof t === 'string') return stringToBytes(t).length;
  if (t instanceof Uint8Array) return t.length;
  if (Array.isArray(t)) return t.length;
  if (isObject(t)) return Object.keys(t).length;
  throw new TypeMismatchError(['string', 'array', 'object'], t);
});

// Quoting ----------------------------------------------------------------------

stringTransform('quote', goQuote);
stringTransform('unquote', goUnquote);

const SIMPLE_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
};

/** Go's strconv.Unquote for "...", `...` and '.' literals. */
export function goUnquote(s: string): string {
  const invalid = () => fail('invalid syntax');
  if (s.length < 2) throw invalid();
  const q = s[0];
  if (q !== s[s.length - 1]) throw invalid();
  const body = s.slice(1, -1);
  if (q === '`') {
    if (body.includes('`')) throw invalid();
    return body.replaceAll('\r', '');
  }
  if (q !== '"' && q !== "'") throw invalid();
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === q || c === '\n') throw invalid();
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[++i];
    if (e === undefined) throw invalid();
    if (SIMPLE_ESCAPES[e] !== undefined) {
      if ((e === "'" && q === '"') || (e === '"' && q === "'")) throw invalid();
      out += SIMPLE_ESCAPES[e];
      continue;
    }
    const hexLen = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
    if (hexLen) {
      const hex = body.slice(i + 1, i + 1 + hexLen);
      if (!new RegExp(`^[0-9a-fA-F]{${hexLen}}$`).test(hex)) throw invalid();
      const code = Number.parseInt(hex, 16);
      if (e === 'x') out += String.fromCharCode(code);
      else {
        if (code > 0x10ffff || (code >= 0xd800 && code < 0xe000)) throw invalid();
        out += String.fromCodePoint(code);
      }
      i += hexLen;
      continue;
    }
    if (e >= '0' && e <= '7') {
      const oct = body.slice(i, i + 3);
      if (!/^[0-7]{3}$/.test(oct)) throw invalid();
      const code = Number.parseInt(oct, 8);
      if (code > 255) throw invalid();
      out += String.fromCharCode(code);
      i += 2;
      continue;
    }
    throw invalid();
  }
  if (q === "'" && Array.from(out).length !== 1) throw invalid();
  return out;
}

// Editing ------------------------------------------------------------------------

method('repeat', [p.int('count')], (t, a) => {
  const n = argInt(a, 0, 'count');
  if (n < 0) throw fail('invalid count, must be greater than or equal to zero');
  if (typeof t === 'string') {
    checkSize('repeat', t.length * n, MAX_GENERATED_LENGTH);
    return t.repeat(n);
  }
  if (t instanceof Uint8Array) {
    checkSize('repeat', t.length * n, MAX_GENERATED_LENGTH);
    return stringToBytes(bytesToString(t).repeat(n));
  }
  throw new TypeMismatchError(['string'], t);
});

for (const name of ['replace', 'replace_all']) {
  stringTransform(name, (s, a) => s.replaceAll(argString(a, 0), argString(a, 1)), [
    p.str('old'),
    p.str('new'),
  ]);
}

/** Go's strings.Replacer: at each position the first matching old string (in argument order) wins. */
function replaceMany(s: string, pairs: Array<[string, string]>): string {
  let out = '';
  let i = 0;
  while (i <= s.length) {
    let matched = false;
    for (const [from, to] of pairs) {
      if (from === '' ? true : s.startsWith(from, i)) {
        if (from === '') {
          out += to;
          if (i < s.length) out += s[i];
          i++;
        } else {
          out += to;
          i += from.length;
        }
        matched = true;
        break;
      }
    }
    if (!matched) {
      if (i < s.length) out += s[i];
      i++;
    }
  }
  return out;
}

for (const name of ['replace_many', 'replace_all_many']) {
  stringTransform(
    name,
    (s, a) => {
      const items = a[0];
      if (!Array.isArray(items)) throw new TypeMismatchError(['array'], items);
      if (items.length % 2 !== 0) {
        throw fail(`invalid arguments, expected an array of even length, got ${items.length}`);
      }
      const strs = items.map((v, i) => {
        if (typeof v === 'string') return v;
        if (v instanceof Uint8Array) return bytesToString(v);
        throw fail(
          `invalid replacement value at index ${i}: ${new TypeMismatchError(['string'], v).message}`,
        );
      });
      const pairs: Array<[string, string]> = [];
      for (let i = 0; i < strs.length; i += 2) pairs.push([strs[i], strs[i + 1]]);
      return replaceMany(s, pairs);
    },
    [p.array('values')],
  );
}

simpleMethod('reverse', (t) => {
  if (typeof t === 'string') return Array.from(t).reverse().join('');
  if (t instanceof Uint8Array) return Uint8Array.from(t).reverse();
  throw new TypeMismatchError(['string'], t);
});

/** Resolves slice bounds like the reference: negatives count from the end and are clamped. */
export function sliceBounds(length: number, lowArg: number, highArg: number | undefined): [number, number] {
  let low = lowArg;
  let high = highArg ?? length;
  if (low < 0) low = Math.max(0, length + low);
  if (high < 0) high = Math.max(0, length + high);
  if (high > length) high = length;
  if (low > high) {
    if (highArg === undefined && low >= length) return [length, length];
    throw fail(
      `lower slice bound ${low} must be lower than or equal to upper bound (${high}) and target length (${length})`,
    );
  }
  return [low, high];
}

method('slice', [p.int('low'), p.int('high', { optional: true })], (t, a) => {
  const low = argInt(a, 0, 'low');
  const high = a[1] === undefined || a[1] === null ? undefined : argInt(a, 1, 'high');
  if (typeof t === 'string') {
    // Go slices strings by byte; ASCII text can be sliced directly.
    if (/^[\x00-\x7f]*$/.test(t)) {
      const [lo, hi] = sliceBounds(t.length, low, high);
      return t.slice(lo, hi);
    }
    const bytes = stringToBytes(t);
    const [lo, hi] = sliceBounds(bytes.length, low, high);
    return bytesToString(bytes.subarray(lo, hi));
  }
  if (t instanceof Uint8Array) {
    const [lo, hi] = sliceBounds(t.length, low, high);
    return t.slice(lo, hi);
  }
  if (Array.isArray(t)) {
    const [lo, hi] = sliceBounds(t.length, low, high);
    return t.slice(lo, hi);
  }
  throw new TypeMismatchError(['array', 'string'], t);
});

method('split', [p.str('delimiter'), p.bool('empty_as_null', { default: false })], (t, a) => {
  const delim = argString(a, 0);
  const emptyAsNull = a[1] === undefined ? false : argBool(a, 1);
  const asBytes = t instanceof Uint8Array;
  const s = targetString(t);
  const parts = delim === '' ? Array.from(s) : s.split(delim);
  return parts.map((part): Value => {
    if (emptyAsNull && part === '') return null;
    return asBytes ? stringToBytes(part) : part;
  });
});

/** Go's unicode.IsSpace set, used by strings.TrimSpace. */
const SPACE =
  '\t\n\v\f\r \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000';

const SPACE_SET = new Set(SPACE);
/** Printable ASCII other than space: never in SPACE. */
const isPlainAscii = (c: number) => c > 32 && c < 127;
let lastCutset = SPACE;
let lastCutsetChars = SPACE_SET;

/** Whether a UTF-16 code unit is in SPACE (all of it is in the BMP). */
function isSpaceCode(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0x85) return false;
  return (
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/** Go's strings.TrimSpace: the default cutset, by code unit, without a set lookup per character. */
function trimSpace(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isSpaceCode(s.charCodeAt(start))) start++;
  while (end > start && isSpaceCode(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/** Strips characters of `set` from both ends (Go's strings.Trim). */
function trimSet(s: string, set: string): string {
  if (s.length === 0) return s;
  // Default cutset and printable ASCII at both ends (the usual case): nothing to strip.
  if (set === SPACE && isPlainAscii(s.charCodeAt(0)) && isPlainAscii(s.charCodeAt(s.length - 1))) return s;
  if (set === SPACE) return trimSpace(s);
  if (set !== lastCutset) {
    lastCutset = set;
    lastCutsetChars = new Set(Array.from(set));
  }
  const chars = lastCutsetChars;
  // A cutset with characters outside the BMP needs whole code points; otherwise code units do
  // (half of a surrogate pair never equals a BMP character), without splitting the string.
  if (set.length !== chars.size) {
    const arr = Array.from(s);
    let start = 0;
    let end = arr.length;
    while (start < end && chars.has(arr[start] as string)) start++;
    while (end > start && chars.has(arr[end - 1] as string)) end--;
    return arr.slice(start, end).join('');
  }
  let start = 0;
  let end = s.length;
  while (start < end && chars.has(s[start] as string)) start++;
  while (end > start && chars.has(s[end - 1] as string)) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

stringTransform('trim', (s, a) => trimSet(s, argOptString(a, 0) ?? SPACE), [
  p.str('cutset', { optional: true }),
]);
stringTransform(
  'trim_prefix',
  (s, a) => {
    const prefix = argString(a, 0);
    return s.startsWith(prefix) ? s.slice(prefix.length) : s;
  },
  [p.str('prefix')],
);
stringTransform(
  'trim_suffix',
  (s, a) => {
    const suffix = argString(a, 0);
    return suffix !== '' && s.endsWith(suffix) ? s.slice(0, s.length - suffix.length) : s;
  },
  [p.str('suffix')],
);

// Formatting ---------------------------------------------------------------------

method('format', [], (t, a) => goSprintf(targetString(t), restArgs(a)), { variadic: true });

/** `contains` on strings is a substring test; arrays and objects compare their elements. */
export function stringContains(t: string, arg: Value): boolean {
  return t.includes(valueToString(arg));
}
