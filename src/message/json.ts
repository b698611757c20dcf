// JSON text <-> values for message contents. Parsing uses JSON.parse unless the text holds a run
// of 16+ digits, in which case an exact parser keeps integers beyond 2^53 as bigint so that ids
// such as 9007199254740993 survive a mapping untouched.
import { toJson } from '../bloblang/value.js';

const MAX_DEPTH = 10000;

export function parseJson(text: string): unknown {
  if (!hasLongDigitRun(text)) return JSON.parse(text);
  return new ExactParser(text).parseDocument();
}

const isDigit = (c: number) => c >= 48 && c <= 57;

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

class ExactParser {
  private i = 0;

  constructor(private readonly text: string) {}

  parseDocument(): unknown {
    const v = this.value(0);
    this.skipWs();
    if (this.i !== this.text.length) this.fail('Unexpected non-whitespace character after JSON');
    return v;
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

  private value(depth: number): unknown {
    if (depth > MAX_DEPTH) this.fail('JSON nested too deeply');
    this.skipWs();
    const c = this.text[this.i];
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"') return this.string();
    if (c === '-' || (c >= '0' && c <= '9')) return this.number();
    for (const [word, v] of WORDS) {
      if (this.text.startsWith(word, this.i)) {
        this.i += word.length;
        return v;
      }
    }
    this.fail(c === undefined ? 'Unexpected end of JSON input' : `Unexpected token '${c}'`);
  }

  private object(depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.i++;
    this.skipWs();
    if (this.text[this.i] === '}') {
      this.i++;
      return out;
    }
    for (;;) {
      this.skipWs();
      if (this.text[this.i] !== '"') this.fail('Expected property name');
      const key = this.string();
      this.skipWs();
      if (this.text[this.i] !== ':') this.fail("Expected ':'");
      this.i++;
      const v = this.value(depth + 1);
      if (key === '__proto__')
        Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
      else out[key] = v;
      this.skipWs();
      const c = this.text[this.i++];
      if (c === '}') return out;
      if (c !== ',') this.fail("Expected ',' or '}'");
    }
  }

  private array(depth: number): unknown[] {
    const out: unknown[] = [];
    this.i++;
    this.skipWs();
    if (this.text[this.i] === ']') {
      this.i++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth + 1));
      this.skipWs();
      const c = this.text[this.i++];
      if (c === ']') return out;
      if (c !== ',') this.fail("Expected ',' or ']'");
    }
  }

  private string(): string {
    STRING.lastIndex = this.i;
    const m = STRING.exec(this.text);
    if (!m) this.fail('Bad string');
    this.i += m[0].length;
    return JSON.parse(m[0]) as string;
  }

  private number(): number | bigint {
    NUMBER.lastIndex = this.i;
    const m = NUMBER.exec(this.text);
    if (!m) this.fail('Bad number');
    const src = m[0];
    this.i += src.length;
    const n = Number(src);
    if (Number.isSafeInteger(n) || /[.eE]/.test(src)) return n;
    return BigInt(src);
  }
}

const WORDS: Array<[string, unknown]> = [
  ['true', true],
  ['false', false],
  ['null', null],
];
