// Where the reference's YAML reader (go-yaml v3, a port of libyaml) accepts what the `yaml`
// library's YAML 1.2 core schema does not, configs written for the reference must still load:
// - integers the way go-yaml resolves them: `_` separators anywhere (`30_000_000`), `0b`/`0o`/`0x`
//   with a sign, and a leading 0 meaning octal (`0755` is 493), all through Go's ParseInt;
// - a multi-line quoted scalar whose continuation lines, or closing line, sit at or left of the
//   key's indentation (libyaml never checks the indentation inside quotes).
import {
  Composer,
  type CST,
  type Document,
  Lexer,
  type LineCounter,
  Parser,
  type ScalarTag,
  type Tags,
  YAMLParseError,
} from 'yaml';

type ComposerOptions = ConstructorParameters<typeof Composer>[0];

// ---------------------------------------------------------------------------
// Integers

/** Go's strconv.ParseInt(s, 0, 64) / ParseUint for a string without underscores; undefined when neither parses. */
function goParseInt(plain: string): number | bigint | undefined {
  const m = /^([-+]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]+|[1-9][0-9]*|0)$/.exec(plain);
  if (!m) return undefined;
  const [, sign, body] = m;
  let digits = body!;
  let radix = 10;
  if (/^0[xX]/.test(digits)) {
    radix = 16;
    digits = digits.slice(2);
  } else if (/^0[oO]/.test(digits)) {
    radix = 8;
    digits = digits.slice(2);
  } else if (/^0[bB]/.test(digits)) {
    radix = 2;
    digits = digits.slice(2);
  } else if (digits.length > 1 && digits[0] === '0') {
    radix = 8;
    digits = digits.slice(1);
  }
  const prefix = radix === 16 ? '0x' : radix === 8 ? '0o' : radix === 2 ? '0b' : '';
  let value = BigInt(prefix + digits);
  if (sign === '-') value = -value;
  // int64, then (for positive values) uint64, as go-yaml tries them; beyond that it is not an int.
  if (value < -(2n ** 63n) || value >= 2n ** 64n) return undefined;
  return Number.isSafeInteger(Number(value)) ? Number(value) : value;
}

const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;

/**
 * What go-yaml makes of a plain scalar that starts with a digit or a sign (its resolve table's
 * 'D' and 'S' hints), after the underscores are dropped: an int, else a YAML-style float, else
 * undefined (a string, or something the core schema already reads the same way).
 */
export function goYamlNumber(text: string): number | bigint | undefined {
  if (!/^[-+0-9]/.test(text)) return undefined;
  const plain = text.replaceAll('_', '');
  const int = goParseInt(plain);
  if (int !== undefined) return int;
  if (YAML_STYLE_FLOAT.test(plain)) return Number.parseFloat(plain);
  return undefined;
}

/** A RegExp whose test() is go-yaml's question "is this plain scalar a number?". */
class GoNumberTest extends RegExp {
  override test(text: string): boolean {
    // Plain forms the core schema reads the same way are left to it (its node formats stay).
    if (!/[_oObB]|^[-+]0[xX]|^[-+]?0[0-9]/.test(text)) return false;
    return goYamlNumber(text) !== undefined;
  }
}

const goYamlNumberTag: ScalarTag = {
  identify: () => false,
  default: true,
  tag: 'tag:yaml.org,2002:int',
  test: new GoNumberTest('^$'),
  resolve: (text: string) => {
    const n = goYamlNumber(text);
    // A float-looking underscored number (`1_000.5`) is a float to go-yaml, but keeps the int tag
    // here; only the value matters to a config.
    return typeof n === 'bigint' ? Number(n) : (n ?? text);
  },
};

/** The core schema's tags with go-yaml's number forms tried first. */
export function goYamlTags(tags: Tags): Tags {
  return [goYamlNumberTag, ...tags];
}

// ---------------------------------------------------------------------------
// Quoted scalars

interface LexerInternals {
  buffer: string;
  parseQuotedScalar(): Generator<string, string>;
  continueScalar(offset: number): number;
}

/**
 * A lexer that lets the lines of a quoted scalar continue at any indentation, as libyaml does.
 * Only a document marker (`---` or `...` at the start of a line) still ends one, as an error.
 */
export function goYamlLexer(): Lexer {
  const lexer = new Lexer();
  const inner = lexer as unknown as LexerInternals;
  const parseQuoted = inner.parseQuotedScalar;
  const continueScalar = inner.continueScalar;
  let inQuotes = false;
  inner.parseQuotedScalar = function* (this: LexerInternals) {
    inQuotes = true;
    try {
      return yield* parseQuoted.call(this);
    } finally {
      inQuotes = false;
    }
  };
  inner.continueScalar = function (this: LexerInternals, offset: number): number {
    if (!inQuotes) return continueScalar.call(this, offset);
    const buffer = this.buffer;
    const marker = buffer.substring(offset, offset + 3);
    if ((marker === '---' || marker === '...') && /^[\s]?$/.test(buffer[offset + 3] ?? '')) return -1;
    let at = offset;
    while (buffer[at] === ' ' || buffer[at] === '\t') at++;
    return at;
  };
  return lexer;
}

/** What Parser.parse yields, lexed by the go-yaml lexer. */
export function* goYamlTokens(text: string, lines: LineCounter): Generator<CST.Token> {
  const parser = new Parser(lines.addNewLine);
  lines.addNewLine(0);
  for (const lexeme of goYamlLexer().lex(text)) yield* parser.next(lexeme);
  yield* parser.end();
}

/** parseDocument, reading quoted scalars as go-yaml does (options carry the go-yaml tags). */
export function parseGoYamlDocument(text: string, lines: LineCounter, options: ComposerOptions): Document {
  return composeOne(goYamlTokens(text, lines), text.length, options);
}

/** The first document of the tokens; a second one is an error, in parseDocument's words. */
export function composeOne(tokens: Iterable<CST.Token>, length: number, options: ComposerOptions): Document {
  let doc: Document | undefined;
  for (const next of new Composer(options).compose(tokens, true, length)) {
    if (doc === undefined) {
      doc = next;
      continue;
    }
    doc.errors.push(
      new YAMLParseError(
        next.range.slice(0, 2) as [number, number],
        'MULTIPLE_DOCS',
        'Source contains multiple documents; please use YAML.parseAllDocuments()',
      ),
    );
    break;
  }
  // compose(…, forceDoc = true) always yields a document, as in parseDocument.
  return doc as Document;
}
