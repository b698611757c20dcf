// Grok expressions to regular expressions, as the reference's grok library builds them: each
// `%{NAME}`, `%{NAME:field}` or `%{NAME:field:type}` becomes the named pattern's expression, in a
// named group when it names a field (or always, without named_captures_only). The result runs on
// nekton's linear-time engine (src/regexp), as RE2 runs it in the reference.
import { compilePattern, type Pattern } from '../../regexp/index.js';

interface GrokPattern {
  expression: string;
  /** Group names given to the engine (`a_b__3`) to the field names written (`a.b`). */
  safeAliases: Map<string, string>;
  typeHints: Map<string, string>;
}

const REFERENCE = /%\{([\w.-]+(?::[\w.-]+(?::[\w.-]+)?)?)\}/g;

/** Pattern definitions read from a pattern file: `NAME pattern` lines, `#` comments. */
export function parsePatternFile(text: string, into: Map<string, string>): void {
  for (const line of text.split('\n')) {
    const l = line.replace(/\r$/, '');
    if (l === '' || l.startsWith('#')) continue;
    const space = l.indexOf(' ');
    if (space < 0) throw new Error(`pattern line without a definition: ${l}`);
    into.set(l.slice(0, space), l.slice(space + 1));
  }
}

/** Numbers the groups of a pattern set: each named group gets a name of its own. */
interface GroupCounter {
  next: number;
}

function newPattern(
  pattern: string,
  known: Map<string, GrokPattern>,
  namedOnly: boolean,
  counter: GroupCounter,
): GrokPattern {
  const typeHints = new Map<string, string>();
  const safeAliases = new Map<string, string>();
  let expression = pattern;
  for (const m of pattern.matchAll(REFERENCE)) {
    const names = m[1]!.split(':');
    const refKey = names[0]!;
    const field = names.length > 1 ? names[1]! : refKey;
    // Go's regexp allows two groups of one name (the last non-empty one wins); the engine here
    // does not, so each group gets a unique name that maps back to its field.
    const refAlias = `${field.replace(/\W/g, '_')}__${counter.next++}`;
    safeAliases.set(refAlias, field);
    if (names.length === 3 && names[2] !== 'string') typeHints.set(refAlias, names[2]!);
    const ref = known.get(refKey);
    if (!ref) throw new Error(`no pattern found for %{${refKey}}`);
    const refExpression =
      !namedOnly || names.length > 1 ? `(?P<${refAlias}>${ref.expression})` : `(${ref.expression})`;
    for (const [key, type] of ref.typeHints) if (!typeHints.has(key)) typeHints.set(key, type.toLowerCase());
    for (const [s, real] of ref.safeAliases) if (!safeAliases.has(s)) safeAliases.set(s, real);
    expression = expression.split(m[0]).join(refExpression);
  }
  return { expression, safeAliases, typeHints };
}

/** Named patterns, each with its references resolved (definitions may refer to one another). */
export class PatternSet {
  private readonly known = new Map<string, GrokPattern>();
  private readonly counter: GroupCounter = { next: 0 };

  constructor(private readonly namedOnly: boolean) {}

  addAll(definitions: ReadonlyMap<string, string>): void {
    for (const key of definitions.keys()) if (!this.known.has(key)) this.resolve(key, definitions, new Set());
  }

  private resolve(key: string, definitions: ReadonlyMap<string, string>, visiting: Set<string>): void {
    const pattern = definitions.get(key)!;
    visiting.add(key);
    for (const m of pattern.matchAll(REFERENCE)) {
      const refKey = m[1]!.split(':')[0]!;
      if (this.known.has(refKey)) continue;
      if (!definitions.has(refKey)) throw new Error(`no pattern found for %{${refKey}}`);
      if (visiting.has(refKey)) throw new Error(`pattern %{${refKey}} refers to itself`);
      this.resolve(refKey, definitions, visiting);
    }
    visiting.delete(key);
    this.known.set(key, newPattern(pattern, this.known, this.namedOnly, this.counter));
  }

  compile(expression: string, removeEmpty: boolean): CompiledGrok {
    const p = newPattern(expression, this.known, this.namedOnly, this.counter);
    // A pattern used twice repeats its group names: number every named group of the final
    // expression, keeping what each one stands for.
    const final: GrokPattern = { expression: '', safeAliases: new Map(), typeHints: new Map() };
    let n = 0;
    final.expression = p.expression.replace(/\(\?P<(\w+)>/g, (_whole, name: string) => {
      const unique = `g${n++}`;
      final.safeAliases.set(unique, p.safeAliases.get(name) ?? name);
      const type = p.typeHints.get(name);
      if (type !== undefined) final.typeHints.set(unique, type);
      return `(?P<${unique}>`;
    });
    final.expression = withoutUnnamedCaptures(final.expression);
    return new CompiledGrok(compilePattern(final.expression), final, removeEmpty);
  }
}

/**
 * Turns the unnamed capturing groups into non-capturing ones: their values are never kept, and
 * the linear engine pays for every capture it tracks (the default patterns have dozens).
 */
export function withoutUnnamedCaptures(re: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < re.length; i++) {
    const c = re[i]!;
    if (c === '\\') {
      out += c + (re[i + 1] ?? '');
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      out += c;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += c;
      // A `]` first in a class (or after `^`) is a literal.
      if (re[i + 1] === '^') out += re[++i];
      if (re[i + 1] === ']') out += re[++i];
      continue;
    }
    out += c === '(' && re[i + 1] !== '?' ? '(?:' : c;
  }
  return out;
}

const INT = /^[+-]?\d+$/;
const FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const SPECIAL_FLOAT = /^[+-]?(?:inf|infinity|nan)$/i;

/** A value cast by its type hint, as Go's strconv does; throws as the reference's library does. */
function typeCast(match: string, type: string | undefined): unknown {
  if (type === undefined || type === 'string') return match;
  if (type === 'int') {
    if (!INT.test(match)) throw new Error(`strconv.Atoi: parsing "${match}": invalid syntax`);
    const n = Number(match);
    if (Number.isSafeInteger(n)) return n;
    const big = BigInt(match);
    if (big > 9223372036854775807n || big < -9223372036854775808n)
      throw new Error(`strconv.Atoi: parsing "${match}": value out of range`);
    return big;
  }
  if (type === 'float') {
    if (FLOAT.test(match)) return Number(match);
    if (SPECIAL_FLOAT.test(match))
      return match.toLowerCase().includes('nan') ? Number.NaN : match.startsWith('-') ? -Infinity : Infinity;
    throw new Error(`strconv.ParseFloat: parsing "${match}": invalid syntax`);
  }
  throw new Error(
    `ERROR the value ${match} cannot be converted to ${type}. Must be int, float, string or empty`,
  );
}

export class CompiledGrok {
  constructor(
    private readonly pattern: Pattern,
    private readonly grok: GrokPattern,
    private readonly removeEmpty: boolean,
  ) {}

  /** The typed values of the named groups of the first match (empty when none); throws on a failed cast. */
  parseTyped(text: string): Map<string, unknown> {
    const out = new Map<string, unknown>();
    const m = this.pattern.find(text);
    if (m === null) return out;
    const names = this.pattern.names;
    for (let i = 0; i < names.length; i++) {
      const key = names[i]!;
      const match = m.groups[i] ?? '';
      if (key === '' || (this.removeEmpty && match === '')) continue;
      out.set(this.grok.safeAliases.get(key) ?? key, typeCast(match, this.grok.typeHints.get(key)));
    }
    return out;
  }
}

/** Sets a value at a dotted path, making objects on the way (gabs's SetP). */
export function setPath(root: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = root;
  for (let i = 0; i < parts.length - 1; i++) {
    const next = node[parts[i]!];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) {
      const created: Record<string, unknown> = {};
      node[parts[i]!] = created;
      node = created;
    } else node = next as Record<string, unknown>;
  }
  node[parts[parts.length - 1]!] = value;
}
