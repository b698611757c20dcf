// A user's regular expression, compiled once: RE2 syntax and Go's match semantics, run in time
// linear in the input (re2js, a port of Go's regexp package). Every place where a pattern from a
// config or from data meets data goes through here; only the project's own constant patterns
// stay on V8's backtracking RegExp.
import { RE2JS, RE2JSException } from 're2js';

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
  ) {
    this.re2 = compiled.re2() as unknown as GoStyleRe2;
    const names = new Array<string>(compiled.groupCount() + 1).fill('');
    for (const [name, index] of Object.entries(compiled.namedGroups())) names[index] = name;
    this.names = names;
  }

  /** Whether the pattern matches anywhere in `text` (Go's MatchString). */
  test(text: string): boolean {
    return this.compiled.test(text);
  }

  /** The leftmost match with its groups (Go's FindStringSubmatchIndex), or null. */
  find(text: string): Match | null {
    const at = this.re2.findSubmatchIndex(text);
    return at ? toMatch(text, at) : null;
  }

  /** Every match with groups, as Go's FindAllStringSubmatchIndex (an empty match right after a match is skipped). */
  findAll(text: string): Match[] {
    return (this.re2.findAllSubmatchIndex(text, -1) ?? []).map((at) => toMatch(text, at));
  }

  /** Start and end of every match, without groups (cheaper when only the spans are needed). */
  spans(text: string): [number, number][] {
    return (this.re2.findAllIndex(text, -1) ?? []).map((at) => [at[0], at[1]]);
  }
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
const CACHE_LIMIT = 1000;
const cache = new Map<string, Pattern>();

/** Compiles (or reuses) a pattern; throws PatternSyntaxError with Go's message when RE2 refuses it. */
export function compilePattern(source: string): Pattern {
  const hit = cache.get(source);
  if (hit) return hit;
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(source);
  } catch (err) {
    if (err instanceof RE2JSException) throw new PatternSyntaxError(err.message, source);
    throw err;
  }
  const pattern = new Pattern(source, compiled);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(source, pattern);
  return pattern;
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
