// A fast path for the plain block YAML most config bodies are (nested `key: value` maps, `- `
// lists, one-line scalars, `{}`/`[]`). It builds the same nodes, ranges and line table as the
// `yaml` composer, several times faster. Anything outside that subset (comments, blank lines,
// anchors, tags, block or multi-line scalars, flow content, escapes, duplicate keys...) returns
// undefined and the caller uses the full parser, so results never differ.
import { Document, type LineCounter, Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';

type YamlNode = Scalar | YAMLMap | YAMLSeq;

/** Thrown inside the parser to give up; never escapes parseSimpleYaml. */
class NotSimple extends Error {}

const KEY = /^[A-Za-z0-9_][A-Za-z0-9_-]*$/;
/** Characters that cannot start a plain scalar (or that change its meaning there). */
const INDICATORS = '-?:,[]{}#&*!|>\'"%@`';

interface Line {
  /** Offset of the line's first character in the text. */
  start: number;
  indent: number;
  /** The line without its indentation. */
  text: string;
}

/**
 * Parses `text` when it is within the simple subset; `lines` receives the line starts (only when
 * the text is accepted). Options must be those given to parseDocument.
 */
export function parseSimpleYaml(
  text: string,
  lines: LineCounter,
  options: { prettyErrors: boolean; strict: boolean },
): Document | undefined {
  if (text.length === 0 || /[#\t\r\\\u0000-\u0008\u000b-\u001f\u007f-\uffff]/.test(text)) return undefined;
  const table = splitLines(text);
  if (table === undefined) return undefined;
  const doc = new Document(undefined, { ...options, lineCounter: lines });
  try {
    const parser = new SimpleParser(table, doc, text.length);
    const root = parser.block(0);
    if (!parser.done()) return undefined;
    doc.contents = root as never;
    doc.range = [0, root.range?.[1] ?? 0, text.length];
  } catch (err) {
    if (err instanceof NotSimple) return undefined;
    throw err;
  }
  lines.addNewLine(0);
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines.addNewLine(i + 1);
  return doc;
}

/** Lines with their indentation; undefined for blank lines inside the text or trailing spaces. */
function splitLines(text: string): Line[] | undefined {
  const body = text.endsWith('\n') ? text.slice(0, text.length - 1) : text;
  const out: Line[] = [];
  let start = 0;
  for (const raw of body.split('\n')) {
    let indent = 0;
    while (raw.charCodeAt(indent) === 32) indent++;
    if (indent === raw.length || raw.endsWith(' ')) return undefined;
    out.push({ start, indent, text: raw.slice(indent) });
    start += raw.length + 1;
  }
  return out;
}

class SimpleParser {
  private at = 0;

  constructor(
    private readonly lines: Line[],
    private readonly doc: Document,
    private readonly textLength: number,
  ) {}

  done(): boolean {
    return this.at === this.lines.length;
  }

  /** A block map or list whose first line is the current one, at exactly `indent`. */
  block(indent: number): YAMLMap | YAMLSeq {
    const line = this.lines[this.at];
    if (!line || line.indent !== indent) throw new NotSimple();
    return isItem(line.text) ? this.seq(indent) : this.map(indent, line.start + indent, line.text);
  }

  /** Map entries at `indent`; the first one is `first` (it may follow a `- ` on its line). */
  private map(indent: number, firstStart: number, first: string): YAMLMap {
    const map = new YAMLMap(this.doc.schema);
    const keys = new Set<string>();
    let start = firstStart;
    let text = first;
    for (;;) {
      const colon = text.indexOf(':');
      const key = colon < 0 ? '' : text.slice(0, colon);
      if (!KEY.test(key) || keys.has(key) || !isPlainString(this.doc, key, true)) throw new NotSimple();
      if (colon + 1 < text.length && text[colon + 1] !== ' ') throw new NotSimple();
      keys.add(key);
      const keyNode = plainScalar(key, start, start + key.length, start + key.length, key);
      this.at++;
      let rest = colon + 1;
      while (text.charCodeAt(rest) === 32) rest++;
      const value =
        rest < text.length ? this.inline(text.slice(rest), start + rest, indent) : this.nested(indent, true);
      map.items.push(new Pair(keyNode, value));
      const next = this.lines[this.at];
      if (!next || next.indent < indent || (next.indent === indent && isItem(next.text))) break;
      if (next.indent > indent) throw new NotSimple();
      start = next.start + indent;
      text = next.text;
    }
    const end = lastEnd(map.items[map.items.length - 1]!.value as YamlNode);
    map.range = [firstStart, end, end];
    return map;
  }

  /** `- ` items at `indent`. */
  private seq(indent: number): YAMLSeq {
    const seq = new YAMLSeq(this.doc.schema);
    const first = this.lines[this.at]!.start + indent;
    for (;;) {
      const line = this.lines[this.at]!;
      if (line.text === '-') throw new NotSimple();
      let col = 2;
      while (line.text.charCodeAt(col) === 32) col++;
      const content = line.text.slice(col);
      const start = line.start + indent + col;
      const item = startsEntry(content)
        ? this.map(indent + col, start, content)
        : this.inline(content, start, indent, true);
      seq.items.push(item);
      const next = this.lines[this.at];
      if (!next || next.indent !== indent || !isItem(next.text)) break;
    }
    const end = lastEnd(seq.items[seq.items.length - 1] as YamlNode);
    seq.range = [first, end, end];
    return seq;
  }

  /** The value of `key:` written on the following lines: deeper, or a list at the same indent. */
  private nested(indent: number, inMap: boolean): YamlNode {
    const next = this.lines[this.at];
    if (!next) throw new NotSimple();
    if (next.indent > indent) return this.block(next.indent);
    if (inMap && next.indent === indent && isItem(next.text)) return this.seq(indent);
    throw new NotSimple(); // an empty value: leave its position to the real parser
  }

  /** A value on the current line (already consumed): a one-line scalar, `{}` or `[]`. */
  private inline(text: string, start: number, indent: number, consumed = false): YamlNode {
    if (consumed) this.at++;
    const end = start + text.length;
    // A value's node ends after the line break that follows it, as the composer's do.
    const node = inlineValue(this.doc, text, start, end < this.textLength ? end + 1 : end);
    // A deeper next line would continue a plain scalar (or be an error): not simple.
    const next = this.lines[this.at];
    if (next && next.indent > indent) throw new NotSimple();
    return node;
  }
}

function isItem(text: string): boolean {
  return text === '-' || text.startsWith('- ');
}

function startsEntry(text: string): boolean {
  const colon = text.indexOf(':');
  return (
    colon > 0 && KEY.test(text.slice(0, colon)) && (colon + 1 === text.length || text[colon + 1] === ' ')
  );
}

function lastEnd(node: YamlNode): number {
  return node.range?.[2] ?? 0;
}

function plainScalar(
  value: unknown,
  start: number,
  end: number,
  nodeEnd: number,
  source: string,
  resolved?: Scalar,
): Scalar {
  const node = resolved ?? new Scalar(value);
  node.range = [start, end, nodeEnd];
  node.source = source as never;
  node.type = 'PLAIN';
  return node;
}

/** Whether a plain scalar resolves to a string the way the composer resolves it. */
function isPlainString(doc: Document, text: string, atKey: boolean): boolean {
  return findTag(doc, text, atKey) === undefined;
}

type ScalarTag = {
  default?: boolean | 'key';
  test?: RegExp;
  format?: string;
  collection?: string;
  resolve: (value: string, onError: (message: string) => void, options: unknown) => unknown;
};

/** The composer's findScalarTagByTest; undefined stands for the string tag. */
function findTag(doc: Document, text: string, atKey: boolean): ScalarTag | undefined {
  const tags = doc.schema.tags as unknown as ScalarTag[];
  return tags.find((t) => (t.default === true || (atKey && t.default === 'key')) && t.test?.test(text));
}

function inlineValue(doc: Document, text: string, start: number, nodeEnd: number): YamlNode {
  const end = start + text.length;
  if (text === '{}' || text === '[]') {
    const coll = text === '{}' ? new YAMLMap(doc.schema) : new YAMLSeq(doc.schema);
    coll.flow = true;
    coll.range = [start, end, nodeEnd];
    return coll;
  }
  const quote = text[0];
  if (quote === "'" || quote === '"') {
    const inner = text.slice(1, -1);
    if (text.length < 2 || text[text.length - 1] !== quote) throw new NotSimple();
    const value = quote === "'" ? unquoteSingle(inner) : inner;
    if (quote === '"' && inner.includes('"')) throw new NotSimple();
    const node = new Scalar(value);
    node.range = [start, end, nodeEnd];
    node.source = value as never;
    node.type = quote === "'" ? 'QUOTE_SINGLE' : 'QUOTE_DOUBLE';
    return node;
  }
  const c = text[0]!;
  const signed = c === '-' && /[0-9.]/.test(text[1] ?? '');
  if ((INDICATORS.includes(c) && !signed) || text.includes(': ') || text.endsWith(':')) throw new NotSimple();
  const tag = findTag(doc, text, false);
  if (!tag) return plainScalar(text, start, end, nodeEnd, text);
  let failed = false;
  const value = tag.resolve(text, () => (failed = true), doc.options);
  if (failed) throw new NotSimple();
  // Some tags return the node itself (e.g. with the digits a float was written with).
  const node = plainScalar(value, start, end, nodeEnd, text, value instanceof Scalar ? value : undefined);
  if (tag.format) node.format = tag.format;
  return node;
}

/** `'it''s'` → `it's`; a lone quote inside means the string is not one simple scalar. */
function unquoteSingle(inner: string): string {
  if (!inner.includes("'")) return inner;
  if (inner.replaceAll("''", '').includes("'")) throw new NotSimple();
  return inner.replaceAll("''", "'");
}
