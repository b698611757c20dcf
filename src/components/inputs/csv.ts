// The `csv` input: reads CSV files (RFC 4180, Go's encoding/csv rules) as one structured message
// per row, an object keyed by the header row or an array of strings.
import { defineComponent, field } from '../../config/spec.js';
import type { Input } from '../../engine/component.js';
import { ConfigError } from '../../engine/errors.js';
import { BatchedInput } from '../brokers/batched_input.js';
import { scanCsv } from '../scanners/csv.js';
import type { Scanner } from '../scanners/scanner.js';
import { expandPaths, FileReader } from './file.js';

const ONE_CHAR = 'delimiter must be exactly one character';

/** The csv scanner with the reference's `header` metadata: the column names, in order. */
function csvWithHeader(parseHeader: boolean, delimiter: string, lazyQuotes: boolean): Scanner {
  const rows = scanCsv({
    custom_delimiter: delimiter,
    parse_header_row: parseHeader,
    lazy_quotes: lazyQuotes,
    continue_on_error: false,
  });
  if (!parseHeader) return rows;
  return async function* withHeader(source, details) {
    let header: string[] | null = null;
    for await (const messages of rows(source, details)) {
      for (const msg of messages) {
        header ??= Object.keys(msg.structured() as Record<string, unknown>);
        msg.setMeta('header', header);
      }
      yield messages;
    }
  };
}

export const spec = defineComponent({
  name: 'csv',
  kind: 'input',
  status: 'stable',
  categories: ['Local'],
  summary: 'Reads one or more CSV files as structured records following the format described in RFC 4180.',
  description: `With \`parse_header_row\` (the default) the first row names the columns and each later row becomes an object: \`foo,bar\` then \`1,2\` gives \`{"foo":"1","bar":"2"}\`. Without it each row is an array of strings. Blank lines are skipped; a row with a different number of fields than the first fails the file (as Go's reader does).

Each message carries the metadata \`path\`, \`mod_time_unix\`, \`mod_time\` (RFC 3339) and, with a header row, \`header\` (the column names). \`batch_count\` groups that many rows into one batch. Paths may be globs; files are read one after another, and the input ends after the last one.`,
  fields: [
    field.array(
      field.string('paths', 'CSV files to read, as paths or glob patterns.', {
        examples: [['./data/*.csv']],
      }),
    ),
    field.bool('parse_header_row', 'Whether the first row names the columns (objects) or is data (arrays).', {
      default: true,
    }),
    field.string('delimiter', 'The character that separates fields.', {
      default: ',',
      examples: ['\t', ';'],
    }),
    field.bool('lazy_quotes', 'Accept a quote in an unquoted field and a bare quote in a quoted one.', {
      default: false,
    }),
    field.bool('delete_on_finish', 'Delete each file once all of its rows were delivered.', {
      default: false,
      advanced: true,
    }),
    field.int('batch_count', 'How many rows to group into one batch.', { default: 1, advanced: true }),
    field.bool('auto_replay_nacks', 'Re-deliver nacked messages inside nekton instead of failing them.', {
      default: true,
    }),
  ],
  examples: [
    {
      title: 'Rows of every CSV file in a directory',
      config: `input:
  csv:
    paths: [ ./data/*.csv ]
pipeline:
  processors:
    - mapping: 'root = this.merge({"source": @path})'
output:
  stdout: {}
`,
    },
  ],
  lint: (config) => ([...config.delimiter].length === 1 ? [] : [ONE_CHAR]),
  async build(config, ctx): Promise<Input> {
    if ([...config.delimiter].length !== 1) throw new ConfigError(`${ctx.path}: ${ONE_CHAR}`);
    const scanner = csvWithHeader(config.parse_header_row, config.delimiter, config.lazy_quotes);
    const reader = new FileReader(
      await expandPaths(config.paths),
      async () => scanner,
      config.delete_on_finish,
    );
    const input = ctx.wrapReader(reader, { autoReplayNacks: config.auto_replay_nacks });
    if (config.batch_count <= 1) return input;
    return new BatchedInput(input, {
      count: config.batch_count,
      byteSize: 0,
      periodMs: 0,
      check: null,
      processors: [],
    });
  },
});
