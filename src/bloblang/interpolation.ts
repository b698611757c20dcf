// `${! query }` string interpolation for config fields. Each query is compiled once; rendering
// evaluates them against one message and joins the pieces with the `.string()` rules.
import type { Message } from '../message/message.js';
import { Compiler, type Fn } from './compiler.js';
import { Exec, LAZY_THIS } from './exec.js';
import { parseError } from './lexer.js';
import { DELETED, NOTHING } from './library.js';
import { parseQuery } from './parser.js';
import { valueToString } from './value.js';

type Piece = string | Fn;

/** Index of the `}` closing a query that starts at `from`, skipping strings and nested braces. */
function findClose(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      if (text.startsWith('"""', i)) {
        const end = text.indexOf('"""', i + 3);
        if (end < 0) return -1;
        i = end + 2;
        continue;
      }
      i++;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === '\\') i++;
        i++;
      }
      if (i >= text.length) return -1;
      continue;
    }
    if (c === '{' || c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === '}') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

export class CompiledInterpolation {
  private readonly state = new Map<unknown, unknown>();
  readonly isStatic: boolean;
  /** The text of a static interpolation, joined once: outputs render it per message. */
  private readonly staticText: string;

  constructor(
    private readonly pieces: Piece[],
    private readonly varCount: number,
  ) {
    this.isStatic = pieces.every((p) => typeof p === 'string');
    this.staticText = this.isStatic ? (pieces as string[]).join('') : '';
  }

  render(batch: readonly Message[], index: number): string {
    if (this.isStatic) return this.staticText;
    let out = '';
    let x: Exec | null = null;
    for (const p of this.pieces) {
      if (typeof p === 'string') {
        out += p;
        continue;
      }
      x ??= new Exec(batch, index, this.state, this.varCount);
      let v: unknown;
      try {
        v = p(x, LAZY_THIS);
      } catch {
        // Like the reference, a failing query renders as null rather than failing the field.
        v = null;
      }
      out += v === DELETED || v === NOTHING ? 'null' : valueToString(v);
    }
    return out;
  }
}

export function compileInterpolation(text: string): CompiledInterpolation {
  const pieces: Piece[] = [];
  const compiler = new Compiler(text);
  let literal = '';
  let i = 0;
  while (i < text.length) {
    if (text.startsWith('${{!', i)) {
      const close = text.indexOf('}}', i + 4);
      if (close < 0) throw parseError(text, i + 4, 'required: expected end of escaped expression');
      literal += `\${!${text.slice(i + 4, close)}}`;
      i = close + 2;
      continue;
    }
    if (text.startsWith('${!', i)) {
      const start = i + 3;
      let close = findClose(text, start);
      if (close < 0) close = text.length;
      // Blank out everything before the query so parse errors report positions in `text`.
      const masked = text.slice(0, start).replace(/[^\n]/g, ' ') + text.slice(start, close);
      const expr = parseQuery(masked);
      if (close >= text.length) throw parseError(text, close, 'required: expected end of expression');
      if (literal) pieces.push(literal);
      literal = '';
      pieces.push(compiler.compileQuery(expr));
      i = close + 1;
      continue;
    }
    literal += text[i];
    i++;
  }
  if (literal || pieces.length === 0) pieces.push(literal);
  return new CompiledInterpolation(pieces, compiler.varCount);
}
