// The V8 fast path: a pattern simple enough that V8's backtracking engine gives Go's results, and
// whose backtracking can be bounded, runs on V8 when that bound for the input's length is small.
//
// Simple means: no (?i)/(?U), quantifiers only on single-character atoms (never on a group, so no
// nested repetition and no capture inside a loop), escapes and classes whose meaning is the same
// in both engines once translated. Then a backtracking search tries at most
//   starts × (n+1)^k × C
// paths of at most (pattern length + n) steps each, where k counts unbounded quantifiers that can give
// back characters usefully, C the other choices (bounded counts, `?`, each `|`). A quantifier is
// "deterministic" (counts 1) when the atom that must follow it cannot match a character it
// matches, or when the pattern ends after it: only one count can then continue. Anything else,
// and any input long enough to exceed the budget (BASE_STEPS below), goes to the linear engine.
import {
  ANY,
  ANY_BUT_NEWLINE,
  type CharSet,
  complement,
  DIGIT,
  disjoint,
  normalise,
  SPACE,
  WORD,
} from './char_sets.js';

/**
 * The most backtracking steps V8 may take on one input: a fixed allowance plus a few dozen per
 * character, so that even its worst case costs about what the linear engine spends on that input
 * (re2js takes ~0.1-0.3 µs a character, V8 a few ns a step).
 */
const BASE_STEPS = 50_000;
const STEPS_PER_CHARACTER = 64;

export interface FastPath {
  /** The translated pattern, flags `gu`. */
  readonly re: RegExp;
  /** Whether V8 is bounded well enough for an input of `length` UTF-16 units. */
  fits(length: number): boolean;
}

type Token =
  | { kind: 'atom'; js: string; set: CharSet }
  | { kind: 'assert'; js: string; endOfText: boolean; startOfText: boolean }
  | { kind: 'open'; js: string }
  | { kind: 'close' }
  | { kind: 'alt' }
  | { kind: 'quant'; js: string; min: number; max: number };

class Unsupported extends Error {}

const unsupported = (): never => {
  throw new Unsupported();
};

const jsChar = (code: number): string =>
  /[A-Za-z0-9_]/.test(String.fromCodePoint(code)) ? String.fromCodePoint(code) : `\\u{${code.toString(16)}}`;

const single = (code: number): CharSet => [[code, code]];

const CONTROL_ESCAPES: Record<string, number> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11 };

const SPACE_JS = '\\t\\n\\f\\r ';

/** Translates `pattern` for V8 and works out its backtracking bound, or returns null. */
export function fastPath(pattern: string): FastPath | null {
  try {
    return build(pattern);
  } catch (err) {
    if (err instanceof Unsupported || err instanceof SyntaxError) return null;
    throw err;
  }
}

function build(pattern: string): FastPath {
  let multiLine = false;
  let dotAll = false;
  let i = 0;
  const flags = /^\(\?([a-zA-Z]+)\)/.exec(pattern);
  if (flags) {
    for (const f of flags[1]) {
      if (f === 'm') multiLine = true;
      else if (f === 's') dotAll = true;
      else unsupported();
    }
    i = flags[0].length;
  }
  const tokens: Token[] = [];
  const atom = (js: string, set: CharSet) => tokens.push({ kind: 'atom', js, set });
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === '\\') {
      i = escapeSequence(pattern, i, tokens);
      continue;
    }
    if (c === '[') {
      i = charClass(pattern, i, tokens);
      continue;
    }
    if (c === '(') {
      const named = /^\(\?P?<([A-Za-z0-9_]+)>/.exec(pattern.slice(i, i + 40));
      if (named) tokens.push({ kind: 'open', js: `(?<${named[1]}>` });
      else if (pattern.startsWith('(?:', i)) tokens.push({ kind: 'open', js: '(?:' });
      else if (pattern[i + 1] === '?') unsupported();
      else tokens.push({ kind: 'open', js: '(' });
      i += named ? named[0].length : pattern[i + 1] === '?' ? 3 : 1;
      continue;
    }
    const repeat = c === '{' ? /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i)) : null;
    if (c === '*' || c === '+' || c === '?' || repeat) {
      const min = repeat ? Number(repeat[1]) : c === '+' ? 1 : 0;
      const max = repeat
        ? repeat[2] === undefined
          ? min
          : repeat[3] === ''
            ? Infinity
            : Number(repeat[3])
        : c === '?'
          ? 1
          : Infinity;
      let js = repeat ? repeat[0] : c;
      i += js.length;
      if (pattern[i] === '?') {
        js += '?';
        i++;
      }
      // Only a single-character atom may be repeated here.
      if (tokens[tokens.length - 1]?.kind !== 'atom') unsupported();
      tokens.push({ kind: 'quant', js, min, max });
      continue;
    }
    i++;
    if (c === '.') atom(dotAll ? '[\\s\\S]' : '[^\\n]', dotAll ? ANY : ANY_BUT_NEWLINE);
    else if (c === '|') tokens.push({ kind: 'alt' });
    else if (c === ')') tokens.push({ kind: 'close' });
    else if (c === '^')
      tokens.push({
        kind: 'assert',
        js: multiLine ? '(?<![^\\n])' : '^',
        endOfText: false,
        startOfText: !multiLine,
      });
    else if (c === '$')
      tokens.push({
        kind: 'assert',
        js: multiLine ? '(?![^\\n])' : '$',
        endOfText: !multiLine,
        startOfText: false,
      });
    else {
      const code = pattern.codePointAt(i - 1)!;
      if (code > 0xffff) i++;
      atom(jsChar(code), single(code));
    }
  }
  const re = new RegExp(tokens.map((t) => ('js' in t ? t.js : t.kind === 'alt' ? '|' : ')')).join(''), 'gu');
  return { re, fits: bound(tokens, pattern.length) };
}

/** One escape outside a class; returns the index after it. */
function escapeSequence(pattern: string, i: number, tokens: Token[]): number {
  const n = pattern[i + 1] ?? unsupported();
  const push = (js: string, set: CharSet) => tokens.push({ kind: 'atom', js, set });
  const assert = (js: string, endOfText = false, startOfText = false) =>
    tokens.push({ kind: 'assert', js, endOfText, startOfText });
  switch (n) {
    case 'd':
      push('\\d', DIGIT);
      break;
    case 'D':
      push('\\D', complement(DIGIT));
      break;
    case 'w':
      push('\\w', WORD);
      break;
    case 'W':
      push('\\W', complement(WORD));
      break;
    case 's':
      push(`[${SPACE_JS}]`, SPACE);
      break;
    case 'S':
      push(`[^${SPACE_JS}]`, complement(SPACE));
      break;
    case 'b':
      assert('\\b');
      break;
    case 'B':
      assert('\\B');
      break;
    case 'A':
      assert('(?<![\\s\\S])', false, true);
      break;
    case 'z':
      assert('(?![\\s\\S])', true);
      break;
    default: {
      const control = CONTROL_ESCAPES[n];
      if (control !== undefined) push(jsChar(control), single(control));
      else if (/[!-/:-@[-`{-~]/.test(n)) push(jsChar(n.charCodeAt(0)), single(n.charCodeAt(0)));
      else unsupported();
    }
  }
  return i + 2;
}

/** A `[...]` class of literals, ranges and Perl classes; returns the index after it. */
function charClass(pattern: string, start: number, tokens: Token[]): number {
  let i = start + 1;
  const negated = pattern[i] === '^';
  if (negated) i++;
  const ranges: [number, number][] = [];
  let js = '';
  let first = true;
  // A class member that is one character: its code, or null for a Perl class.
  const member = (): { code: number | null; js: string; set: CharSet } => {
    const c = pattern[i] ?? unsupported();
    if (c === '[') unsupported(); // POSIX classes and other nesting: left to the linear engine
    if (c !== '\\') {
      const code = pattern.codePointAt(i)!;
      i += code > 0xffff ? 2 : 1;
      return { code, js: `\\u{${code.toString(16)}}`, set: single(code) };
    }
    const n = pattern[i + 1] ?? unsupported();
    i += 2;
    if (n === 'd') return { code: null, js: '\\d', set: DIGIT };
    if (n === 'D') return { code: null, js: '\\D', set: complement(DIGIT) };
    if (n === 'w') return { code: null, js: '\\w', set: WORD };
    if (n === 'W') return { code: null, js: '\\W', set: complement(WORD) };
    if (n === 's') return { code: null, js: SPACE_JS, set: SPACE };
    const control = CONTROL_ESCAPES[n];
    const code = control ?? (/[!-/:-@[-`{-~]/.test(n) ? n.charCodeAt(0) : unsupported());
    return { code, js: `\\u{${code.toString(16)}}`, set: single(code) };
  };
  while (first || pattern[i] !== ']') {
    if (i >= pattern.length) unsupported();
    first = false;
    const from = member();
    if (pattern[i] === '-' && pattern[i + 1] !== ']' && i + 1 < pattern.length) {
      i++;
      const to = member();
      if (from.code === null || to.code === null || to.code < from.code) unsupported();
      ranges.push([from.code!, to.code!]);
      js += `${from.js}-${to.js}`;
    } else {
      ranges.push(...from.set.map(([a, b]) => [a, b] as [number, number]));
      js += from.js;
    }
  }
  const set = normalise(ranges);
  tokens.push({ kind: 'atom', js: `[${negated ? '^' : ''}${js}]`, set: negated ? complement(set) : set });
  return i + 1;
}

/** The input lengths for which the backtracking bound stays under the budget. */
function bound(tokens: Token[], patternLength: number): (length: number) => boolean {
  let degree = 0;
  let constant = 1;
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t];
    if (token.kind === 'alt') constant *= 2;
    if (token.kind !== 'quant') continue;
    const repeated = tokens[t - 1] as Extract<Token, { kind: 'atom' }>;
    if (deterministic(tokens, t, repeated.set)) continue;
    if (token.max === Infinity) degree++;
    else constant *= token.max - token.min + 1;
  }
  // Anchored at the start of the text: other start positions fail at once (unless a `|` offers an
  // unanchored alternative).
  const first = tokens[0];
  const anchored = first?.kind === 'assert' && first.startOfText && !tokens.some((t) => t.kind === 'alt');
  return (length) => {
    const starts = anchored ? 1 : length + 1;
    // Each path also walks the runs its deterministic quantifiers consume: up to the input's length.
    const pathSteps = (patternLength + length + 1) * (degree + 1);
    const steps = starts * (length + 1) ** degree * constant * pathSteps + length;
    return steps <= BASE_STEPS + STEPS_PER_CHARACTER * length;
  };
}

/** Whether only one count of the quantifier at `t` can let the match go on. */
function deterministic(tokens: Token[], t: number, repeated: CharSet): boolean {
  let next = t + 1;
  while (tokens[next]?.kind === 'close') next++;
  const follower = tokens[next];
  if (follower === undefined) return true;
  if (follower.kind === 'assert') return follower.endOfText;
  if (follower.kind !== 'atom') return false;
  const after = tokens[next + 1];
  if (after?.kind === 'quant' && after.min === 0) return false;
  return disjoint(repeated, follower.set);
}
