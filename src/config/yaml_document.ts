// YAML (and JSON, parsed as YAML flow) with line numbers, guarded against alias bombs and
// absurd nesting. Syntax errors become ConfigErrors naming their line and column.
import {
  type Document,
  isAlias,
  isCollection,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  visit,
  type YAMLError,
} from 'yaml';
import { parseSimpleYaml } from './fast_yaml.js';
import { goYamlTags, parseGoYamlDocument } from './go_yaml.js';
import { configErrorAt } from './positioned_error.js';
import { setOriginOf } from './set_origins.js';

export interface ParsedYaml {
  readonly doc: Document;
  readonly lines: LineCounter;
}

/** Aliases expanded when converting to plain values; beyond this it is treated as an alias bomb. */
export const MAX_ALIAS_COUNT = 1000;
const MAX_DEPTH = 200;

/** Parses YAML text; throws ConfigError naming the position and problem (and the file when given). */
export function parseYaml(text: string, file?: string): ParsedYaml {
  const lines = new LineCounter();
  checkNesting(text, file);
  const doc =
    parseSimpleYaml(text, lines, YAML_OPTIONS) ??
    parseGoYamlDocument(text, lines, { ...YAML_OPTIONS, lineCounter: lines });
  return checkedDocument(text, doc, lines, file);
}

/**
 * How every config is parsed. uniqueKeys off: the library compares every key of a map with every
 * other one (a 4 MB body of 300,000 keys took minutes and blocked the server); checkStructure
 * finds duplicates with a Set. merge: `<<: *anchor` merge keys, as Benthos (yaml.v3) reads them.
 * customTags: numbers as go-yaml resolves them (`30_000_000` is an int; see go_yaml.ts).
 * logLevel 'error': the library would print its own warnings on stderr as Node warnings (a
 * collection used as a key, twice per run); the linter reports such a key at its line instead.
 */
export const YAML_OPTIONS = {
  prettyErrors: false,
  logLevel: 'error' as const,
  strict: false,
  uniqueKeys: false,
  merge: true,
  customTags: goYamlTags,
};

/**
 * The YAML parser recurses once per nesting level. Absurd nesting must never reach it: near the
 * end of the stack V8 can fail to compile a regular expression, which kills the process.
 */
export function checkNesting(text: string, file?: string): void {
  const tooDeepAt = nestsTooDeeply(text);
  if (tooDeepAt > 0) throw tooDeep(file, tooDeepAt);
}

/** The parsed document once its errors and structure are checked (throws ConfigError). */
export function checkedDocument(text: string, doc: Document, lines: LineCounter, file?: string): ParsedYaml {
  const error = doc.errors[0];
  if (error?.message.includes('Maximum call stack size exceeded')) throw tooDeep(file, 1);
  if (error) {
    // With prettyErrors off the error has no linePos; its offset and the line table give it.
    const { line, col } = lines.linePos(errorOffset(text, error));
    const problem = /multiple documents/.test(error.message)
      ? 'a config is one YAML document: found a second one (a line "---" or "...")'
      : error.message.split('\n')[0]!;
    throw configErrorAt(Math.max(line, 1), Math.max(col, 1), problem, file);
  }
  checkStructure(doc.contents, 0, lines, file);
  return { doc, lines };
}

/**
 * The offset to report for a YAML error. An unclosed `[` or `{` is reported where the parser
 * gave up, past any line breaks (often at the next key); the problem is at the text before that.
 */
function errorOffset(text: string, error: YAMLError): number {
  let offset = Math.min(error.pos[0], text.length);
  if (!/end with a [\]}]$/.test(error.message)) return offset;
  while (offset > 0 && /\s/.test(text[offset - 1]!)) offset--;
  return offset;
}

function tooDeep(file: string | undefined, line: number) {
  return configErrorAt(line, 1, `config nests deeper than ${MAX_DEPTH} levels`, file);
}

/**
 * A linear scan for nesting beyond MAX_DEPTH: open flow brackets outside quoted strings,
 * compact `- - -` block entries on one line, and indentation deeper than any real config has.
 * Returns the 1-based line where the limit is crossed, or 0.
 */
function nestsTooDeeply(text: string): number {
  let line = 1;
  let depth = 0;
  let quote = '';
  let lineStart = true;
  let dashes = 0;
  let indent = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '\n') {
      line++;
      lineStart = true;
      dashes = 0;
      indent = 0;
      continue;
    }
    if (lineStart) {
      if (c === ' ') {
        if (++indent > 8 * MAX_DEPTH) return line;
        continue;
      }
      if (c === '-' && (text[i + 1] === ' ' || text[i + 1] === '\t')) {
        if (++dashes > MAX_DEPTH) return line;
        i++;
        continue;
      }
      lineStart = false;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '{') {
      if (++depth > MAX_DEPTH) return line;
    } else if ((c === ']' || c === '}') && depth > 0) depth--;
  }
  return 0;
}

/** Nesting within MAX_DEPTH, and no key twice in one map (in linear time). */
function checkStructure(node: unknown, depth: number, lines: LineCounter, file?: string): void {
  if (!isCollection(node)) return;
  if (depth > MAX_DEPTH) throw tooDeep(file, lineOf(node, lines));
  if (isMap(node)) {
    const seen = new Set<unknown>();
    for (const pair of node.items) {
      const key = pair.key;
      if (isScalar(key) && typeof key.value !== 'symbol' && key.value !== '<<') {
        if (seen.has(key.value)) {
          const at = positionOf(key, lines) ?? { line: 1, col: 1 };
          throw configErrorAt(at.line, at.col, 'Map keys must be unique', file);
        }
        seen.add(key.value);
      }
      checkStructure(pair.value, depth + 1, lines, file);
    }
    return;
  }
  for (const item of node.items) checkStructure(item, depth + 1, lines, file);
}

/** A 1-based line and column in the config text. */
export interface TextPosition {
  readonly line: number;
  readonly col: number;
  /** `--set a.b=c` for a value given on the command line (then line and col are 1). */
  readonly origin?: string;
  /**
   * The text of a plain scalar read as a number (`0755`, `0x1F`, `1e3`): a string field keeps it
   * as written, as go-yaml decodes a scalar into a Go string, instead of the number re-printed.
   */
  readonly numberText?: string;
}

/** Where a node starts (for a block map: its first key); undefined for a node without a range. */
export function positionOf(node: Node | null | undefined, lines: LineCounter): TextPosition | undefined {
  const origin = setOriginOf(node);
  if (origin) return { line: 1, col: 1, origin };
  const offset = node?.range?.[0];
  return offset === undefined ? undefined : lines.linePos(offset);
}

/** 1-based line where a node starts (for a block map: its first key). */
export function lineOf(node: Node | null | undefined, lines: LineCounter, fallback = 1): number {
  return positionOf(node, lines)?.line ?? fallback;
}

/** The go-yaml short tag of a node (`!!map`, `!!seq`, `!!str`, `!!int`, `!!float`, `!!bool`, `!!null`). */
export function shortTag(node: Node | null | undefined): string {
  if (node === null || node === undefined) return '!!null';
  if (isMap(node)) return '!!map';
  if (isSeq(node)) return '!!seq';
  if (isAlias(node)) return '!!alias';
  if (isScalar(node)) {
    const v = node.value;
    if (v === null || v === undefined) return '!!null';
    if (typeof v === 'boolean') return '!!bool';
    if (typeof v === 'number' || typeof v === 'bigint') return Number.isInteger(v) ? '!!int' : '!!float';
    return '!!str';
  }
  return '!!str';
}

/** The document as plain values; throws ConfigError on an alias bomb. */
export function yamlToValue(parsed: ParsedYaml): unknown {
  try {
    return parsed.doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    // Name the first alias: with an alias bomb that is where the expansion starts.
    let at: TextPosition = { line: 1, col: 1 };
    visit(parsed.doc, {
      Alias(_key, node) {
        at = positionOf(node, parsed.lines) ?? at;
        return visit.BREAK;
      },
    });
    const problem = err instanceof Error ? err.message : String(err);
    throw configErrorAt(at.line, at.col, `config could not be read: ${problem}`);
  }
}

/**
 * Document path (keys and indexes) -> position of the value (of the key when the value is
 * empty), so conversion errors can name a line and column.
 */
export type LineIndex = ReadonlyMap<string, TextPosition>;

export function pathKey(segments: readonly (string | number)[]): string {
  return segments.join('\u0000');
}

export function buildLineIndex(parsed: ParsedYaml): LineIndex {
  const index = new Map<string, TextPosition>();
  const start: TextPosition = { line: 1, col: 1 };
  const visit = (node: unknown, segments: (string | number)[]) => {
    if (!node || typeof node !== 'object') return;
    const n = node as Node;
    const at = positionOf(n, parsed.lines) ?? start;
    const numeric = isScalar(n) && (typeof n.value === 'number' || typeof n.value === 'bigint');
    index.set(pathKey(segments), numeric && n.source ? { ...at, numberText: n.source } : at);
    if (segments.length > MAX_DEPTH) return;
    if (isMap(n)) {
      for (const pair of n.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        index.set(pathKey([...segments, key]), positionOf(pair.key as Node, parsed.lines) ?? start);
        visit(pair.value, [...segments, key]);
      }
    } else if (isSeq(n)) {
      n.items.forEach((item, i) => {
        visit(item, [...segments, i]);
      });
    }
  };
  visit(parsed.doc.contents, []);
  return index;
}
