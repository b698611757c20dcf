// YAML (and JSON, parsed as YAML flow) with line numbers, guarded against alias bombs and
// absurd nesting. Syntax errors become one-line ConfigErrors.
import {
  type Document,
  isAlias,
  isCollection,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  parseDocument,
  visit,
} from 'yaml';
import { ConfigError } from '../engine/errors.js';
import { parseSimpleYaml } from './fast_yaml.js';

export interface ParsedYaml {
  readonly doc: Document;
  readonly lines: LineCounter;
}

/** Aliases expanded when converting to plain values; beyond this it is treated as an alias bomb. */
export const MAX_ALIAS_COUNT = 1000;
const MAX_DEPTH = 200;

/** Parses YAML text; throws ConfigError naming the line and problem (and the file when given). */
export function parseYaml(text: string, file?: string): ParsedYaml {
  const lines = new LineCounter();
  // The YAML parser recurses once per nesting level. Absurd nesting must never reach it: near the
  // end of the stack V8 can fail to compile a regular expression, which kills the process.
  const tooDeepAt = nestsTooDeeply(text);
  if (tooDeepAt > 0) throw tooDeep(file, tooDeepAt);
  const options = { prettyErrors: false, strict: false };
  const doc =
    parseSimpleYaml(text, lines, options) ?? parseDocument(text, { ...options, lineCounter: lines });
  const error = doc.errors[0];
  if (error?.message.includes('Maximum call stack size exceeded')) throw tooDeep(file, 1);
  if (error) {
    const line = error.linePos?.[0]?.line ?? 1;
    const column = error.linePos?.[0]?.col ?? 1;
    const problem = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    const where = file ? `${file}: ` : '';
    throw new ConfigError(`${where}line ${line}: ${problem}`, line, column, file);
  }
  checkDepth(doc.contents, 0, lines, file);
  return { doc, lines };
}

function tooDeep(file: string | undefined, line: number): ConfigError {
  const where = file ? `${file}: ` : '';
  return new ConfigError(`${where}line ${line}: config nests deeper than ${MAX_DEPTH} levels`, line, 1, file);
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

function checkDepth(node: unknown, depth: number, lines: LineCounter, file?: string): void {
  if (!isCollection(node)) return;
  if (depth > MAX_DEPTH) throw tooDeep(file, lineOf(node, lines));
  for (const item of node.items) {
    if (isMap(node)) {
      const pair = item as { value: unknown };
      checkDepth(pair.value, depth + 1, lines, file);
    } else {
      checkDepth(item, depth + 1, lines, file);
    }
  }
}

/** 1-based line where a node starts (for a block map: its first key). */
export function lineOf(node: Node | null | undefined, lines: LineCounter, fallback = 1): number {
  const offset = node?.range?.[0];
  return offset === undefined ? fallback : lines.linePos(offset).line;
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
    let line = 1;
    visit(parsed.doc, {
      Alias(_key, node) {
        line = lineOf(node, parsed.lines);
        return visit.BREAK;
      },
    });
    const problem = err instanceof Error ? err.message : String(err);
    throw new ConfigError(`line ${line}: config could not be read: ${problem}`, line, 1);
  }
}

/** Document path (keys and indexes) -> line of the value, so conversion errors can name a line. */
export type LineIndex = ReadonlyMap<string, number>;

export function pathKey(segments: readonly (string | number)[]): string {
  return segments.join('\u0000');
}

export function buildLineIndex(parsed: ParsedYaml): LineIndex {
  const index = new Map<string, number>();
  const visit = (node: unknown, segments: (string | number)[]) => {
    if (!node || typeof node !== 'object') return;
    const n = node as Node;
    index.set(pathKey(segments), lineOf(n, parsed.lines));
    if (segments.length > MAX_DEPTH) return;
    if (isMap(n)) {
      for (const pair of n.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        const keyLine = lineOf(pair.key as Node, parsed.lines);
        index.set(pathKey([...segments, key]), keyLine);
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
