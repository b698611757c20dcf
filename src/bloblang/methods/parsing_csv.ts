// CSV reading with the rules and error texts of Go's encoding/csv (fields per record fixed by
// the first record, quotes, lazy quotes, CRLF handling, blank lines skipped).
import { fail } from './support.js';

export interface CsvOptions {
  delimiter: string;
  lazyQuotes: boolean;
}

export function readCsv(text: string, opts: CsvOptions): string[][] {
  const records: string[][] = [];
  const lines = text.split('\n');
  let lineNo = 0;
  let fieldsPerRecord = 0;
  const d = opts.delimiter;
  let li = 0;
  const nextLine = (): string | null => {
    if (li >= lines.length) return null;
    let l = lines[li++];
    lineNo++;
    if (li === lines.length && l === '') return null;
    if (l.endsWith('\r')) l = l.slice(0, -1);
    return l;
  };
  for (;;) {
    let line = nextLine();
    if (line === null) break;
    if (line === '') continue;
    const recordLine = lineNo;
    const fields: string[] = [];
    let pos = 0;
    for (;;) {
      if (line[pos] !== '"') {
        // Unquoted field up to the next delimiter.
        const end = line.indexOf(d, pos);
        const field = end < 0 ? line.slice(pos) : line.slice(pos, end);
        if (!opts.lazyQuotes) {
          const q = field.indexOf('"');
          if (q >= 0) {
            throw fail(`parse error on line ${lineNo}, column ${pos + q + 1}: bare " in non-quoted field`);
          }
        }
        fields.push(field);
        if (end < 0) break;
        pos = end + d.length;
        continue;
      }
      // Quoted field, possibly spanning lines.
      const startLine = lineNo;
      let field = '';
      pos++;
      for (;;) {
        const q = line.indexOf('"', pos);
        if (q < 0) {
          field += `${line.slice(pos)}\n`;
          const more = nextLine();
          if (more === null) {
            if (!opts.lazyQuotes) {
              throw fail(
                `parse error on line ${startLine}, column ${line.length + 1}: extraneous or missing " in quoted field`,
              );
            }
            field = field.slice(0, -1);
            fields.push(field);
            records.push(fields);
            return records;
          }
          line = more;
          pos = 0;
          continue;
        }
        field += line.slice(pos, q);
        const after = line[q + 1];
        if (after === '"') {
          field += '"';
          pos = q + 2;
          continue;
        }
        if (line.startsWith(d, q + 1)) {
          pos = q + 1 + d.length;
          fields.push(field);
          field = '';
          break;
        }
        if (after === undefined) {
          pos = line.length + 1;
          fields.push(field);
          break;
        }
        if (opts.lazyQuotes) {
          field += '"';
          pos = q + 1;
          continue;
        }
        throw fail(`parse error on line ${lineNo}, column ${q + 2}: extraneous or missing " in quoted field`);
      }
      if (pos > line.length) break;
    }
    if (fieldsPerRecord === 0) fieldsPerRecord = fields.length;
    else if (fields.length !== fieldsPerRecord) {
      throw fail(`record on line ${recordLine}: wrong number of fields`);
    }
    records.push(fields);
  }
  return records;
}
