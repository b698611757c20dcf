// JSON text <-> values for message contents. Parsing uses JSON.parse unless the text holds a
// number a float64 cannot carry faithfully: a run of 16+ digits (integers beyond 2^53, long
// fractions) or an exponent of 3+ digits (1e400, 1e-400). Then an exact parser keeps integers as
// bigint and such floats as JsonNumber (their text), so they are written back with the same
// digits, as the reference (json.Number) does.

import { exceedsNesting } from './json_nesting.js';
import { toJson } from './json_writer.js';
import { JsonNumber, MAX_DEPTH } from './value.js';

export { MAX_DEPTH };

export function parseJson(text: string): unknown {
  if (needsExactParse(text)) return new ExactParser(text).parseDocument();
  // Nesting beyond MAX_DEPTH takes two characters per level: only long texts can hold it.
  if (text.length > 2 * MAX_DEPTH && exceedsNesting(text, MAX_DEPTH)) throw tooDeep();
  return JSON.parse(text);
}

/**
 * Whether `JSON.parse(text)` reads `text` exactly as `parseJson` does (no number it would lose, not
 * too deep): then a library that parses JSON text itself can be handed the text.
 */
export const parsesPlainly = (text: string): boolean =>
  !needsExactParse(text) && !(text.length > 2 * MAX_DEPTH && exceedsNesting(text, MAX_DEPTH));

const tooDeep = () => new SyntaxError(`JSON nested deeper than ${MAX_DEPTH} levels`);

const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * A number with an exponent of three digits or more (the only short way to write 1e400 or
 * 1e-400), starting where a JSON value can: hex text inside strings ("…b204e9800…", a quarter
 * of MD5 hashes) does not send the document to the slower exact parser.
 */
export const LONG_EXPONENT = /(?:^|[:[,\s])-?\d+(?:\.\d+)?[eE][+-]?\d\d\d/;

/** Whether JSON.parse could lose a number of `text` (see the file comment). */
export function needsExactParse(text: string): boolean {
  return hasLongDigitRun(text) || LONG_EXPONENT.test(text);
}

/**
 * Whether `text` holds 16 or more digits in a row. Probes every 16th character (any such run
 * covers one of them) and only measures the run around a digit it lands on: ~3x faster than
 * /\d{16}/ on typical documents, where it is on every message's path.
 */
export function hasLongDigitRun(text: string): boolean {
  const n = text.length;
  for (let i = 15; i < n; ) {
    if (!isDigit(text.charCodeAt(i))) {
      i += 16;
      continue;
    }
    let start = i;
    while (start > 0 && isDigit(text.charCodeAt(start - 1))) start--;
    let end = i + 1;
    while (end < n && isDigit(text.charCodeAt(end))) end++;
    if (end - start >= 16) return true;
    // A run of 16 after this one starts past `end` and so covers end + 16.
    i = end + 16;
  }
  return false;
}

/** Compact JSON with keys sorted and Go number formatting (bigint, bytes and timestamps allowed). */
export function stringifyJson(value: unknown): string {
  return toJson(value);
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

/** `digits × 10^exponent` with no leading or trailing zero in digits: equal texts, equal values. */
function canonicalDecimal(text: string): string {
  const m = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) return text;
  const fraction = m[3] ?? '';
  let digits = (m[2] ?? '') + fraction;
  let exponent = Number(m[4] ?? 0) - fraction.length;
  digits = digits.replace(/^0+/, '');
  if (digits === '') return '0';
  const trimmed = digits.replace(/0+$/, '');
  exponent += digits.length - trimmed.length;
  return `${m[1]}${trimmed}e${exponent}`;
}

/**
 * A number token as a value: integers exact (bigint beyond 2^53); a float kept as text when it
 * is written with 16+ digits in a row or a 3+ digit exponent (what sends a document here, so the
 * same float is kept whatever else the document holds) or when a float64 would change its value.
 */
export function numberFromText(src: string): number | bigint | JsonNumber {
  const n = Number(src);
  if (!/[.eE]/.test(src)) return Number.isSafeInteger(n) ? n : BigInt(src);
  if (
    !LONG_EXPONENT.test(src) &&
    !/\d{16}/.test(src) &&
    Number.isFinite(n) &&
    canonicalDecimal(String(n)) === canonicalDecimal(src)
  )
    return n;
  return new JsonNumber(src);
}

/** An array or object being filled by the parser, with the key its next member goes under. */
interface OpenContainer {
  value: unknown[] | Record<string, unknown>;
  key: string | null;
}

/** A JSON parser with an explicit stack (no recursion, so nesting up to MAX_DEPTH is safe). */
class ExactParser {
  private i = 0;

  constructor(private readonly text: string) {}

  parseDocument(): unknown {
    const open: OpenContainer[] = [];
    for (;;) {
      this.skipWs();
      let v: unknown;
      const c = this.text[this.i];
      if (c === '{' || c === '[') {
        this.i++;
        this.skipWs();
        const close = c === '{' ? '}' : ']';
        if (this.text[this.i] === close) {
          this.i++;
          v = c === '{' ? {} : [];
        } else {
          if (open.length >= MAX_DEPTH) throw tooDeep();
          open.push(c === '{' ? { value: {}, key: this.key() } : { value: [], key: null });
          continue;
        }
      } else v = this.scalar(c);
      // Place the value, then close every container that ends after it.
      for (;;) {
        const top = open[open.length - 1];
        if (top === undefined) {
          this.skipWs();
          if (this.i !== this.text.length) this.fail('Unexpected non-whitespace character after JSON');
          return v;
        }
        if (top.key === null) (top.value as unknown[]).push(v);
        else setMember(top.value as Record<string, unknown>, top.key, v);
        this.skipWs();
        const next = this.text[this.i++];
        if (next === ',') {
          if (top.key !== null) top.key = this.key();
          break;
        }
        if (next !== (top.key === null ? ']' : '}')) {
          this.i--;
          this.fail(top.key === null ? "Expected ',' or ']'" : "Expected ',' or '}'");
        }
        open.pop();
        v = top.value;
      }
    }
  }

  private fail(why: string): never {
    throw new SyntaxError(`${why} at position ${this.i}`);
  }

  private skipWs(): void {
    const t = this.text;
    while (this.i < t.length) {
      const c = t.charCodeAt(this.i);
      if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break;
      this.i++;
    }
  }

  /** A member name and its colon. */
  private key(): string {
    this.skipWs();
    if (this.text[this.i] !== '"') this.fail('Expected property name');
    const key = this.string();
    this.skipWs();
    if (this.text[this.i] !== ':') this.fail("Expected ':'");
    this.i++;
    return key;
  }

  private scalar(c: string | undefined): unknown {
    if (c === '"') return this.string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
    for (const [word, v] of WORDS) {
      if (this.text.startsWith(word, this.i)) {
        this.i += word.length;
        return v;
      }
    }
    this.fail(c === undefined ? 'Unexpected end of JSON input' : `Unexpected token '${c}'`);
  }

  private string(): string {
    STRING.lastIndex = this.i;
    const m = STRING.exec(this.text);
    if (!m) this.fail('Bad string');
    this.i += m[0].length;
    return JSON.parse(m[0]) as string;
  }

  private number(): number | bigint | JsonNumber {
    NUMBER.lastIndex = this.i;
    const m = NUMBER.exec(this.text);
    if (!m) this.fail('Bad number');
    this.i += m[0].length;
    return numberFromText(m[0]);
  }
}

/** Sets a member, treating `__proto__` as an ordinary key like JSON.parse does. */
function setMember(o: Record<string, unknown>, key: string, v: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(o, key, { value: v, enumerable: true, writable: true, configurable: true });
  else o[key] = v;
}

const WORDS: Array<[string, unknown]> = [
  ['true', true],
  ['false', false],
  ['null', null],
];
