// Turns Bloblang text into tokens. Whitespace is not a token: each token records whether a
// line break or any whitespace preceded it, which is all the parser needs to separate statements.
import { BloblangParseError } from './errors.js';

export type TokenKind =
  | 'ident' // names, keywords and path segments (`this`, `foo`, `0` after a dot)
  | 'number'
  | 'string'
  | 'var' // `$name`
  | 'meta' // `@name`, `@"quoted"` or a bare `@` (text '')
  | 'punct'
  | 'eof';

export interface Token {
  kind: TokenKind;
  /** Operator/punctuation text, identifier name, or the decoded string/number source. */
  text: string;
  /** Number value (number for safe ints and floats, bigint for large ints). */
  num?: number | bigint;
  /** True when the number literal had a decimal point. */
  isFloat?: boolean;
  /** Offset of the first character. */
  pos: number;
  end: number;
  /** A line break separates this token from the previous one. */
  nl: boolean;
  /** Any whitespace (or comment) separates this token from the previous one. */
  ws: boolean;
}

const PUNCT3 = new Set<string>([]);
const PUNCT2 = new Set(['==', '!=', '<=', '>=', '&&', '||', '->', '=>']);
const PUNCT1 = new Set([
  '.',
  ',',
  ':',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '=',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '%',
  '!',
  '|',
]);

function isIdentStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}

function isIdentPart(c: number): boolean {
  return isIdentStart(c) || (c >= 48 && c <= 57);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Maps an offset to 1-based line and column. */
export function lineCol(text: string, pos: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < pos && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: pos - lineStart + 1 };
}

export function parseError(text: string, pos: number, message: string): BloblangParseError {
  const { line, column } = lineCol(text, pos);
  return new BloblangParseError(`line ${line} char ${column}: ${message}`, line, column);
}

/** Decodes Go-style escapes of a double-quoted string body. */
function decodeEscapes(text: string, start: number, end: number, src: string): string {
  let out = '';
  for (let i = start; i < end; i++) {
    const ch = src[i];
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const e = src[++i];
    switch (e) {
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'r':
        out += '\r';
        break;
      case 'a':
        out += '\x07';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'v':
        out += '\v';
        break;
      case '\\':
      case '"':
      case "'":
        out += e;
        break;
      case 'x':
      case 'u':
      case 'U': {
        const len = e === 'x' ? 2 : e === 'u' ? 4 : 8;
        const hex = src.slice(i + 1, i + 1 + len);
        if (hex.length !== len || !/^[0-9a-fA-F]+$/.test(hex)) {
          throw parseError(text, i - 1, 'invalid syntax');
        }
        out += String.fromCodePoint(Number.parseInt(hex, 16));
        i += len;
        break;
      }
      default: {
        if (e !== undefined && e >= '0' && e <= '7') {
          const oct = src.slice(i, i + 3);
          if (!/^[0-7]{3}$/.test(oct)) throw parseError(text, i - 1, 'invalid syntax');
          out += String.fromCharCode(Number.parseInt(oct, 8));
          i += 2;
          break;
        }
        throw parseError(text, i - 1, 'invalid syntax');
      }
    }
  }
  return out;
}

/** Tokenises the whole text. Throws BloblangParseError on an unterminated string or stray char. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const n = text.length;
  let i = 0;
  let nl = false;
  let ws = false;
  const push = (tok: Omit<Token, 'nl' | 'ws'>) => {
    tokens.push({ ...tok, nl, ws });
    nl = false;
    ws = false;
  };
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      nl = true;
      ws = true;
      i++;
      continue;
    }
    if (c === 32 || c === 9 || c === 13) {
      ws = true;
      i++;
      continue;
    }
    if (c === 35 /* # */) {
      while (i < n && text.charCodeAt(i) !== 10) i++;
      ws = true;
      continue;
    }
    const start = i;
    const prev = tokens.length > 0 ? tokens[tokens.length - 1] : undefined;
    const afterDot = prev !== undefined && prev.kind === 'punct' && prev.text === '.' && !ws;
    if (isIdentStart(c) || (afterDot && isDigit(c))) {
      i++;
      while (i < n && isIdentPart(text.charCodeAt(i))) i++;
      push({ kind: 'ident', text: text.slice(start, i), pos: start, end: i });
      continue;
    }
    if (isDigit(c)) {
      while (i < n && isDigit(text.charCodeAt(i))) i++;
      let isFloat = false;
      if (text.charCodeAt(i) === 46 && isDigit(text.charCodeAt(i + 1))) {
        isFloat = true;
        i++;
        while (i < n && isDigit(text.charCodeAt(i))) i++;
      }
      const src = text.slice(start, i);
      let num: number | bigint = Number(src);
      if (!isFloat && !Number.isSafeInteger(num)) {
        const big = BigInt(src);
        if (big > 9223372036854775807n) num = Number(src);
        else num = big;
      }
      push({ kind: 'number', text: src, num, isFloat, pos: start, end: i });
      continue;
    }
    if (c === 34 /* " */) {
      if (text.startsWith('"""', i)) {
        const close = text.indexOf('"""', i + 3);
        if (close < 0) throw parseError(text, n, 'required: expected end quote');
        i = close + 3;
        push({ kind: 'string', text: text.slice(start + 3, close), pos: start, end: i });
        continue;
      }
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 92) {
          i += 2;
          continue;
        }
        if (d === 34 || d === 10) break;
        i++;
      }
      if (i >= n || text.charCodeAt(i) !== 34) throw parseError(text, i, 'required: expected end quote');
      i++;
      push({ kind: 'string', text: decodeEscapes(text, start + 1, i - 1, text), pos: start, end: i });
      continue;
    }
    if (c === 36 /* $ */ || c === 64 /* @ */) {
      i++;
      let name = '';
      if (i < n && isIdentPart(text.charCodeAt(i))) {
        const s = i;
        while (i < n && isIdentPart(text.charCodeAt(i))) i++;
        name = text.slice(s, i);
      } else if (c === 64 && text.charCodeAt(i) === 34) {
        const s = i + 1;
        i++;
        while (i < n && text.charCodeAt(i) !== 34 && text.charCodeAt(i) !== 10) {
          if (text.charCodeAt(i) === 92) i++;
          i++;
        }
        if (text.charCodeAt(i) !== 34) throw parseError(text, i, 'required: expected end quote');
        name = decodeEscapes(text, s, i, text);
        i++;
      } else if (c === 36) {
        throw parseError(text, i, 'required: expected variable name');
      }
      push({ kind: c === 36 ? 'var' : 'meta', text: name, pos: start, end: i });
      continue;
    }
    const two = text.slice(i, i + 2);
    if (PUNCT3.has(text.slice(i, i + 3))) {
      i += 3;
      push({ kind: 'punct', text: text.slice(start, i), pos: start, end: i });
      continue;
    }
    if (PUNCT2.has(two)) {
      i += 2;
      push({ kind: 'punct', text: two, pos: start, end: i });
      continue;
    }
    const one = text[i];
    if (PUNCT1.has(one)) {
      i++;
      push({ kind: 'punct', text: one, pos: start, end: i });
      continue;
    }
    // Unknown characters become tokens so the parser reports what it expected at this point.
    i++;
    push({ kind: 'punct', text: one, pos: start, end: i });
  }
  push({ kind: 'eof', text: '', pos: n, end: n });
  return tokens;
}
