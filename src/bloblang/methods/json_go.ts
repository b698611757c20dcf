// A JSON reader with Go encoding/json's error texts, used when JSON.parse refuses a document
// (for the message) and for `use_number`, which keeps integers beyond 2^53 exact.
import { LONG_EXPONENT, numberFromText } from '../../message/json.js';
import type { Value } from '../library.js';
import { setKey, type ValueObject } from '../value.js';

export class GoJsonError extends Error {}

function describe(c: string): string {
  if (c === "'") return "'\\''";
  if (c === '"') return `'"'`;
  const code = c.codePointAt(0)!;
  if (code < 0x20) return `'\\x${code.toString(16).padStart(2, '0')}'`;
  return `'${c}'`;
}

class Reader {
  i = 0;
  constructor(
    private readonly s: string,
    private readonly useNumber: boolean,
  ) {}

  fail(context: string): never {
    if (this.i >= this.s.length) throw new GoJsonError('unexpected end of JSON input');
    throw new GoJsonError(`invalid character ${describe(this.s[this.i])} ${context}`);
  }

  ws(): void {
    while (this.i < this.s.length && ' \t\n\r'.includes(this.s[this.i])) this.i++;
  }

  document(): Value {
    this.ws();
    const v = this.value();
    this.ws();
    if (this.i < this.s.length) this.fail('after top-level value');
    return v;
  }

  value(): Value {
    const c = this.s[this.i];
    switch (c) {
      case '{':
        return this.object();
      case '[':
        return this.array();
      case '"':
        return this.string();
      case 't':
        return this.literal('true', true);
      case 'f':
        return this.literal('false', false);
      case 'n':
        return this.literal('null', null);
    }
    if (c === '-' || (c >= '0' && c <= '9')) return this.number();
    return this.fail('looking for beginning of value');
  }

  literal(word: string, v: Value): Value {
    for (let k = 0; k < word.length; k++, this.i++) {
      if (this.s[this.i] !== word[k]) this.fail(`in literal ${word} (expecting '${word[k]}')`);
    }
    return v;
  }

  number(): Value {
    const start = this.i;
    const digit = () => this.i < this.s.length && this.s[this.i] >= '0' && this.s[this.i] <= '9';
    if (this.s[this.i] === '-') this.i++;
    if (this.s[this.i] === '0') this.i++;
    else if (digit()) while (digit()) this.i++;
    else this.fail('in numeric literal');
    if (this.s[this.i] === '.') {
      this.i++;
      if (!digit()) this.fail('after decimal point in numeric literal');
      while (digit()) this.i++;
    }
    if (this.s[this.i] === 'e' || this.s[this.i] === 'E') {
      this.i++;
      if (this.s[this.i] === '+' || this.s[this.i] === '-') this.i++;
      if (!digit()) this.fail('in exponent of numeric literal');
      while (digit()) this.i++;
    }
    const text = this.s.slice(start, this.i);
    if (this.useNumber) return numberFromText(text);
    const n = Number(text);
    // Go's decoder refuses a number a float64 cannot hold rather than make it infinite.
    if (!Number.isFinite(n))
      throw new GoJsonError(`cannot unmarshal number ${text} into Go value of type float64`);
    return n;
  }

  string(): string {
    const start = ++this.i;
    let out = '';
    let chunk = start;
    while (this.i < this.s.length) {
      const c = this.s[this.i];
      if (c === '"') {
        out += this.s.slice(chunk, this.i);
        this.i++;
        return out;
      }
      if (c.charCodeAt(0) < 0x20) this.fail('in string literal');
      if (c === '\\') {
        out += this.s.slice(chunk, this.i);
        const e = this.s[++this.i];
        const simple: Record<string, string> = {
          '"': '"',
          '\\': '\\',
          '/': '/',
          b: '\b',
          f: '\f',
          n: '\n',
          r: '\r',
          t: '\t',
        };
        if (e in simple) {
          out += simple[e];
          this.i++;
        } else if (e === 'u') {
          const hex = this.s.slice(this.i + 1, this.i + 5);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
            this.i++;
            while (/[0-9a-fA-F]/.test(this.s[this.i] ?? '')) this.i++;
            this.fail('in \\u hexadecimal character escape');
          }
          out += String.fromCharCode(Number.parseInt(hex, 16));
          this.i += 5;
        } else {
          this.fail('in string escape code');
        }
        chunk = this.i;
        continue;
      }
      this.i++;
    }
    return this.fail('in string literal');
  }

  array(): Value[] {
    this.i++;
    const out: Value[] = [];
    this.ws();
    if (this.s[this.i] === ']') {
      this.i++;
      return out;
    }
    for (;;) {
      this.ws();
      out.push(this.value());
      this.ws();
      if (this.s[this.i] === ',') {
        this.i++;
        continue;
      }
      if (this.s[this.i] === ']') {
        this.i++;
        return out;
      }
      this.fail('after array element');
    }
  }

  object(): ValueObject {
    this.i++;
    const out: ValueObject = {};
    this.ws();
    if (this.s[this.i] === '}') {
      this.i++;
      return out;
    }
    for (;;) {
      this.ws();
      if (this.s[this.i] !== '"') this.fail('looking for beginning of object key string');
      const key = this.string();
      this.ws();
      if (this.s[this.i] !== ':') this.fail('after object key');
      this.i++;
      this.ws();
      setKey(out, key, this.value());
      this.ws();
      if (this.s[this.i] === ',') {
        this.i++;
        continue;
      }
      if (this.s[this.i] === '}') {
        this.i++;
        return out;
      }
      this.fail('after object key:value pair');
    }
  }
}

/** Parses JSON like Go's encoding/json; throws GoJsonError with Go's message on bad input. */
export function parseGoJson(text: string, useNumber = false): Value {
  if (!useNumber && !LONG_EXPONENT.test(text)) {
    try {
      return JSON.parse(text) as Value;
    } catch {
      // Fall through to the reader for Go's error text.
    }
  }
  return new Reader(text, useNumber).document();
}
