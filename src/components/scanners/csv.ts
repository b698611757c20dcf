// The `csv` scanner: one message per row, as an object keyed by the header row or as an array.
import { StringDecoder } from 'node:string_decoder';
import { type ConfigOf, defineComponent, field } from '../../config/spec.js';
import { Message } from '../../message/message.js';
import { type ByteSource, type Scanner, scanned } from './scanner.js';

function newlines(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/** A row that does not parse, carrying the 1-based line it started on (as Go's csv.ParseError does). */
export class CsvParseError extends Error {}

type RowResult = string[] | CsvParseError;

/**
 * An incremental RFC 4180 reader with Go encoding/csv rules: blank lines are skipped, `\r\n`
 * ends a row, a bare quote in an unquoted field is an error unless lazy quotes are on.
 */
export class CsvRowReader {
  private field = '';
  private row: string[] = [];
  private inQuotes = false;
  /** A quote just closed a quoted field (the next char decides: "" escape, delimiter, or error). */
  private afterQuote = false;
  private fieldStarted = false;
  private line = 1;
  private rowLine = 1;
  private broken: CsvParseError | null = null;

  constructor(
    private readonly delimiter: string,
    private readonly lazyQuotes: boolean,
  ) {}

  /**
   * Feeds text; returns the rows (or row errors) completed by it. Fields grow by runs of text
   * (a slice up to the next special character), not by single characters: a string built one
   * character at a time costs ~33 bytes per character, which an unterminated field made fatal.
   */
  push(text: string, out: RowResult[]): void {
    const d = this.delimiter;
    // A delimiter of two UTF-16 units never equals one unit, as before (the linter allows one character).
    const delimCode = d.length === 1 ? d.charCodeAt(0) : -1;
    const n = text.length;
    let i = 0;
    while (i < n) {
      if (this.inQuotes) {
        if (!this.afterQuote) {
          const quote = text.indexOf('"', i);
          const end = quote < 0 ? n : quote;
          if (end > i) {
            const run = text.slice(i, end);
            this.field += run;
            this.line += newlines(run);
          }
          if (quote < 0) return;
          this.afterQuote = true;
          i = quote + 1;
          continue;
        }
        const c = text[i] as string;
        this.afterQuote = false;
        if (c === '"') {
          this.field += '"';
          i++;
          continue;
        }
        this.inQuotes = false;
        if (c !== d && c !== '\n' && c !== '\r') {
          i++;
          if (this.lazyQuotes) {
            this.field += `"${c}`;
            this.inQuotes = true;
          } else this.fail(`extraneous or missing " in quoted-field`);
          continue;
        }
        // otherwise c ends the quoted field: handled below as unquoted text
      }
      const c = text[i] as string;
      if (c === d) {
        this.endField();
        i++;
      } else if (c === '\n') {
        this.endRow(out);
        this.line++;
        i++;
      } else if (c === '\r') {
        // A \r\n pair ends the row at the \n; a lone \r stays in the field, as in Go.
        if (text[i + 1] !== '\n' && i + 1 < n) this.field += c;
        i++;
      } else if (c === '"' && !this.fieldStarted) {
        this.inQuotes = true;
        this.fieldStarted = true;
        i++;
      } else if (c === '"' && !this.lazyQuotes) {
        this.fail(`bare " in non-quoted-field`);
        i++;
      } else {
        // A run of plain characters (a lazy quote among them) up to the next special one.
        let j = i + 1;
        while (j < n) {
          const k = text.charCodeAt(j);
          if (k === delimCode || k === 0x0a || k === 0x0d || (k === 0x22 && !this.lazyQuotes)) break;
          j++;
        }
        this.field += text.slice(i, j);
        this.fieldStarted = true;
        i = j;
      }
    }
  }

  /** Ends the input: a last row without a newline is still a row. */
  finish(out: RowResult[]): void {
    if (this.inQuotes && !this.afterQuote) {
      if (!this.lazyQuotes) this.fail(`extraneous or missing " in quoted-field`);
    }
    this.inQuotes = false;
    this.afterQuote = false;
    this.endRow(out);
  }

  private fail(reason: string): void {
    this.broken ??= new CsvParseError(`parse error on line ${this.rowLine}: ${reason}`);
  }

  private endField(): void {
    this.row.push(this.field);
    this.field = '';
    this.fieldStarted = false;
  }

  private endRow(out: RowResult[]): void {
    const blank = this.row.length === 0 && this.field === '' && !this.fieldStarted;
    if (!blank || this.broken) {
      this.endField();
      out.push(this.broken ?? this.row);
    }
    this.row = [];
    this.field = '';
    this.fieldStarted = false;
    this.broken = null;
    this.rowLine = this.line + 1;
  }
}

export function scanCsv(config: CsvConfig): Scanner {
  const delimiter = config.custom_delimiter || ',';
  return async function* csvRows(source: ByteSource) {
    const reader = new CsvRowReader(delimiter, config.lazy_quotes);
    const decoder = new StringDecoder('utf8');
    let header: string[] | null = null;
    let width = -1; // Go's FieldsPerRecord: set by the first row, enforced after
    const rows: RowResult[] = [];
    const toMessages = (out: Message[]): void => {
      // Rows are taken off as they are turned into messages: after a failure the rest stays.
      for (const row of rows.splice(0)) {
        let err: Error | null = row instanceof CsvParseError ? row : null;
        if (!err && width >= 0 && (row as string[]).length !== width) {
          err = new CsvParseError('wrong number of fields');
        }
        if (err) {
          if (!config.continue_on_error) throw err;
          const msg = new Message(new Uint8Array(0));
          msg.error = err;
          out.push(msg);
          continue;
        }
        const cells = row as string[];
        if (width < 0) width = cells.length;
        if (config.parse_header_row && header === null) {
          header = cells;
          continue;
        }
        if (header) {
          const obj: Record<string, string> = {};
          for (let i = 0; i < header.length; i++) obj[header[i] as string] = cells[i] as string;
          out.push(Message.fromStructured(obj));
        } else {
          out.push(Message.fromStructured(cells));
        }
      }
    };
    for await (const raw of source) {
      reader.push(typeof raw === 'string' ? raw : decoder.write(raw as Buffer), rows);
      if (rows.length > 0) {
        yield* scanned(toMessages);
      }
    }
    reader.push(decoder.end(), rows);
    reader.finish(rows);
    yield* scanned(toMessages);
  };
}

const fields = [
  field.string('custom_delimiter', 'A single character separating fields instead of a comma.', {
    optional: true,
    examples: ['\t', ';'],
  }),
  field.bool('parse_header_row', 'Treat the first row as column names and emit objects.', {
    default: true,
  }),
  field.bool('lazy_quotes', 'Accept quotes inside unquoted fields and unescaped quotes inside quoted ones.', {
    default: false,
  }),
  field.bool(
    'continue_on_error',
    'On a malformed row emit an empty message flagged with the error and carry on, instead of failing the stream.',
    { default: false },
  ),
] as const;

export type CsvConfig = ConfigOf<typeof fields>;

export const spec = defineComponent({
  name: 'csv',
  kind: 'scanner',
  status: 'stable',
  summary: 'Reads CSV rows, one message per row.',
  description:
    'With `parse_header_row` (the default) the first row names the columns and each later row becomes a JSON object of strings; otherwise each row is an array of strings. Every row must have as many fields as the first.',
  fields,
  lint: (config) =>
    config.custom_delimiter !== undefined && [...config.custom_delimiter].length !== 1
      ? ['custom_delimiter must be exactly one character']
      : [],
  examples: [
    {
      title: 'Semicolon-separated rows as JSON objects',
      config: `input:
  file:
    paths: [ ./people.csv ]
    scanner:
      csv:
        custom_delimiter: ";"
pipeline:
  processors:
    - mapping: 'root.name = this.name.uppercase()'
output:
  stdout: {}
`,
    },
  ],
  build: (config) => scanCsv(config),
});
