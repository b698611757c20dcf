// `parquet_decode`: each message holding a Parquet file becomes one structured message per row.
import { defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { perMessage, processorErrorLog } from '../../engine/processor_helpers.js';
import { loadParquetReader, readParquetRows } from '../../formats/parquet/read.js';

export const spec = defineComponent({
  name: 'parquet_decode',
  kind: 'processor',
  status: 'stable',
  categories: ['Parsing'],
  summary: 'Decodes [Parquet files](https://parquet.apache.org/docs/) into a batch of structured messages.',
  description: `Each message must hold a whole Parquet file (read files with the \`to_the_end\` scanner); it is replaced by one message per row, each a copy of it (metadata included) whose content is the row as an object. A message that is not a Parquet file carries on unchanged with its error flag set.

Values: \`UTF8\`/\`STRING\` columns as strings, other byte arrays as bytes, \`TIMESTAMP\` columns as timestamps, \`UUID\` columns as strings (both whatever \`handle_logical_types\` says, as the reference does), 64-bit integers as numbers (or big integers past 2^53), \`JSON\` columns as the value they hold, \`DATE\` as days since the epoch, lists as arrays and groups as objects. Pages compressed with snappy, gzip, brotli, zstd or lz4raw are read.`,
  fields: [
    field.bool(
      'byte_array_as_string',
      'Whether to extract BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY values as strings rather than byte slices in all cases. Values with a logical type of UTF8 will automatically be extracted as strings irrespective of this field.',
      { default: false, deprecated: true },
    ),
    field.enum(
      'handle_logical_types',
      'Whether to be smart about decoding logical types: `v1` or `v2`. Both decode TIMESTAMP columns as timestamps and UUID columns as strings, as the reference does.',
      ['v1', 'v2'],
      { default: 'v1', examples: ['v2'] },
    ),
  ],
  examples: [
    {
      title: 'Parquet files to JSON lines',
      config: `input:
  file:
    paths: [ ./data/*.parquet ]
    scanner:
      to_the_end: {}
  processors:
    - parquet_decode: {}
output:
  file:
    path: './out/\${! meta("path").filepath_split().index(-1) }.jsonl'
    codec: lines
`,
    },
  ],
  build: async (config, ctx): Promise<Processor> => {
    await loadParquetReader();
    const asString = config.byte_array_as_string;
    const text = new TextDecoder();
    const strings = (v: unknown): unknown => {
      if (v instanceof Uint8Array) return text.decode(v);
      if (Array.isArray(v)) return v.map(strings);
      if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype)
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, strings(x)]));
      return v;
    };
    return {
      process: perMessage(
        async (msg) => {
          const rows = await readParquetRows(msg.bytes());
          return rows.map((row) => {
            const out = msg.copy();
            out.setStructured(asString ? strings(row) : row);
            return out;
          });
        },
        { onError: processorErrorLog(ctx.logger) },
      ),
      close: async () => {},
    };
  },
});
