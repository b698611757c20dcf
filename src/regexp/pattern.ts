// A user's regular expression, compiled once: RE2 syntax and Go's match semantics, run in time
// linear in the input (re2js, a port of Go's regexp package). Every place where a pattern from a
// config or from data meets data goes through here; only the project's own constant patterns
// stay on V8's backtracking RegExp. re2js decides what is valid; simple patterns on inputs short
// enough for their backtracking to be bounded run on V8 instead, ~5-10x faster (fast_path.ts).
import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';
import { type FastPath, fastPath } from './fast_path.js';
import { renameRepeatedGroups } from './group_names.js';

// re2js is loaded on the first pattern, not at start: it costs 15-30 ms to load, and most
// configs have no regular expression.
let re2jsModule: typeof import('re2js') | undefined;
const re2js = (): typeof import('re2js') =>
  (re2jsModule ??= createRequire(import.meta.url)('re2js') as typeof import('re2js'));

/** One match; offsets are UTF-16 indexes into the searched string. */
export interface Match {
  readonly start: number;
  readonly end: number;
  /** [0] is the whole match, then each group; undefined for a group that took no part. */
  readonly groups: (string | undefined)[];
}

/** A pattern that RE2 refuses; the message is Go's (`error parsing regexp: ...`). */
export class PatternSyntaxError extends Error {
  constructor(
    message: string,
    readonly pattern: string,
  ) {
    super(message);
    this.name = 'PatternSyntaxError';
  }
}

/** The slice of re2js's inner (Go-shaped) RE2 object used here. */
interface GoStyleRe2 {
  findSubmatchIndex(s: string): number[] | null;
  findAllSubmatchIndex(s: string, n: number): number[][] | null;
  findAllIndex(s: string, n: number): number[][] | null;
}

export class Pattern {
  /** Capture group names by index; '' for index 0 and for unnamed groups. */
  readonly names: readonly string[];
  private readonly re2: GoStyleRe2;

  constructor(
    readonly source: string,
    private readonly compiled: RE2JS,
    /** The V8 translation, or null when the pattern must always run on the linear engine. */
    private readonly fast: FastPath | null,
    /** Names as written, for groups renamed because their name repeats. */
    written?: ReadonlyMap<string, string>,
  ) {
    this.re2 = compiled.re2() as unknown as GoStyleRe2;
    const names = new Array<string>(compiled.groupCount() + 1).fill('');
    for (const [name, index] of Object.entries(compiled.namedGroups()))
      names[index] = written?.get(name) ?? name;
    this.names = names;
  }

  /** Whether the pattern matches anywhere in `text` (Go's MatchString). */
  test(text: string): boolean {
    const v8 = this.v8For(text);
    if (v8 === null) return this.compiled.test(text);
    v8.lastIndex = 0;
    return v8.test(text);
  }

  /** The leftmost match with its groups (Go's FindStringSubmatchIndex), or null. */
  find(text: string): Match | null {
    const v8 = this.v8For(text);
    if (v8 !== null) {
      v8.lastIndex = 0;
      const m = v8.exec(text);
      return m ? fromExec(m) : null;
    }
    const at = this.re2.findSubmatchIndex(text);
    return at ? toMatch(text, at) : null;
  }

  /** Every match with groups, as Go's FindAllStringSubmatchIndex (an empty match right after a match is skipped). */
  findAll(text: string): Match[] {
    const v8 = this.v8For(text);
    if (v8 !== null) return execAll(v8, text);
    return (this.re2.findAllSubmatchIndex(text, -1) ?? []).map((at) => toMatch(text, at));
  }

  /** Start and end of every match, without groups (cheaper when only the spans are needed). */
  spans(text: string): [number, number][] {
    const v8 = this.v8For(text);
    if (v8 !== null) return execAll(v8, text, (m) => [m.index, m.index + m[0].length]);
    return (this.re2.findAllIndex(text, -1) ?? []).map((at) => [at[0], at[1]]);
  }

  /** Which engine a call on `text` uses (for tests and measurements). */
  engineFor(text: string): 'v8' | 're2js' {
    return this.v8For(text) === null ? 're2js' : 'v8';
  }

  private v8For(text: string): RegExp | null {
    // V8 can place an empty match between the halves of a surrogate pair, where Go cannot.
    return this.fast?.fits(text.length) && !SURROGATE.test(text) ? this.fast.re : null;
  }
}

const SURROGATE = /[\uD800-\uDFFF]/;

function fromExec(m: RegExpExecArray): Match {
  return { start: m.index, end: m.index + m[0].length, groups: Array.from(m) };
}

/** Go's iteration over matches with V8: an empty match right after the previous match is skipped. */
function execAll<T = Match>(
  re: RegExp,
  text: string,
  each: (m: RegExpExecArray) => T = fromExec as never,
): T[] {
  const out: T[] = [];
  re.lastIndex = 0;
  let previousEnd = -1;
  while (re.lastIndex <= text.length) {
    const m = re.exec(text);
    if (!m) break;
    if (m[0].length === 0) {
      // Step past the empty match by one code point.
      const code = text.codePointAt(m.index);
      re.lastIndex = m.index + (code !== undefined && code > 0xffff ? 2 : 1);
      if (m.index === previousEnd) continue;
    }
    out.push(each(m));
    previousEnd = m.index + m[0].length;
  }
  return out;
}

function toMatch(text: string, at: number[]): Match {
  const groups = new Array<string | undefined>(at.length / 2);
  for (let i = 0; i < groups.length; i++) {
    const s = at[2 * i];
    groups[i] = s < 0 ? undefined : text.slice(s, at[2 * i + 1]);
  }
  return { start: at[0], end: at[1], groups };
}

// Mappings usually pass the same literal pattern for every message: compile each once.
const CACHE_LIMIT = 500;
const cache = new Map<string, Pattern>();

/** Compiles (or reuses) a pattern; throws PatternSyntaxError with Go's message when RE2 refuses it. */
export function compilePattern(source: string): Pattern {
  const hit = cache.get(source);
  if (hit) return hit;
  const renamed = renameRepeatedGroups(source);
  const compiled = renamed?.source ?? source;
  const pattern = new Pattern(source, compileRe2(compiled, source), fastPath(compiled), renamed?.written);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(source, pattern);
  return pattern;
}

/** The pattern on the linear engine only, never V8 (to compare the two engines). */
export function compileLinearOnly(source: string): Pattern {
  const renamed = renameRepeatedGroups(source);
  return new Pattern(source, compileRe2(renamed?.source ?? source, source), null, renamed?.written);
}

function compileRe2(compiled: string, source: string): RE2JS {
  const { RE2JS, RE2JSException } = re2js();
  try {
    return RE2JS.compile(compiled);
  } catch (err) {
    if (err instanceof RE2JSException) throw new PatternSyntaxError(err.message, source);
    throw err;
  }
}

/** Go's error for a pattern RE2 refuses, or undefined when it compiles (for linters). */
export function patternProblem(source: string): string | undefined {
  try {
    compilePattern(source);
    return undefined;
  } catch (err) {
    if (err instanceof PatternSyntaxError) return err.message;
    throw err;
  }
}
