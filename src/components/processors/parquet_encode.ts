// `parquet_encode`: a batch of structured messages becomes one Parquet file (hyparquet-writer,
// pure JS), written into the first message of the batch.
import { defineComponent, field, type RawConfigOf } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { flagged, processorErrorLog } from '../../engine/processor_helpers.js';
import { CODECS, type CodecName, compressors } from '../../formats/parquet/codecs.js';
import type { Batch, Message } from '../../message/message.js';
import { columnsFromCommonSchema } from './parquet_common_schema.js';
import {
  COLUMN_TYPES,
  type Column,
  coerceValue,
  readColumn,
  schemaElements,
  sortedColumns,
  type TimestampUnit,
} from './parquet_schema.js';

const NO_SCHEMA = 'either a schema or schema_metadata must be specified';

const fields = [
  field.array(
    field.object(
      'schema',
      'Parquet schema.',
      [
        field.string('name', 'The name of the column.'),
        field.enum(
          'type',
          'The type of the column, only applicable for leaf columns with no child fields. Some logical types can be specified here such as UTF8.',
          COLUMN_TYPES,
          { optional: true },
        ),
        field.bool('repeated', 'Whether the field is repeated.', { default: false }),
        field.bool('optional', 'Whether the field is optional.', { default: false }),
        field.array(
          field.any('fields', 'A list of child fields.', {
            optional: true,
            examples: [
              [
                { name: 'foo', type: 'INT64' },
                { name: 'bar', type: 'BYTE_ARRAY' },
              ],
            ],
          }),
        ),
      ],
      { optional: true },
    ),
  ),
  field.string(
    'schema_metadata',
    "Optionally specify a metadata field containing a schema definition to use for encoding instead of a statically defined schema. For batches of messages, the first message's schema will be applied to all subsequent messages of the batch.",
    { default: '' },
  ),
  field.enum(
    'default_compression',
    'The default compression type to use for fields.',
    Object.keys(CODECS) as CodecName[],
    {
      default: 'uncompressed',
    },
  ),
  field.enum(
    'default_encoding',
    'The default encoding type to use for fields. A custom default encoding is only necessary when consuming data with libraries that do not support `DELTA_LENGTH_BYTE_ARRAY` and is therefore best left unset where possible.',
    ['DELTA_LENGTH_BYTE_ARRAY', 'PLAIN'],
    { default: 'DELTA_LENGTH_BYTE_ARRAY', advanced: true },
  ),
  field.enum(
    'default_timestamp_unit',
    'The precision used when encoding TIMESTAMP logical types. The default `NANOSECOND` matches historical behaviour, but `TIMESTAMP(NANOS)` is not readable by Apache Spark (Databricks), AWS Athena or DuckDB; set this to `MICROSECOND` (or `MILLISECOND`) when writing Parquet files intended for consumption by those engines.',
    ['NANOSECOND', 'MICROSECOND', 'MILLISECOND'],
    { default: 'NANOSECOND', advanced: true },
  ),
] as const;

type Raw = RawConfigOf<typeof fields>;

/** The static columns, or the first problem with them. */
function staticColumns(schema: Raw['schema'], checkTopTypes = true): Column[] {
  return (schema ?? []).map((col, i) => readColumn(col, `schema.${i}`, checkTopTypes));
}

function lint(config: Raw): string[] {
  if ((config.schema ?? []).length === 0 && (config.schema_metadata ?? '') === '') return [NO_SCHEMA];
  try {
    // A top-level column's type is linted by its enum field already.
    staticColumns(config.schema, false);
  } catch (err) {
    return [(err as Error).message];
  }
  return [];
}

/** Whether a column's values are byte arrays at the top level (the encoding applies to those). */
function isByteArrayLeaf(col: Column): boolean {
  return (
    !col.repeated &&
    col.fields.length === 0 &&
    ['BYTE_ARRAY', 'UTF8', 'BSON', 'ENUM', 'JSON'].includes(col.type!)
  );
}

export const spec = defineComponent({
  name: 'parquet_encode',
  kind: 'processor',
  status: 'stable',
  categories: ['Parsing'],
  summary: 'Encodes [Parquet files](https://parquet.apache.org/docs/) from a batch of structured messages.',
  description: `The whole batch becomes one Parquet file, written into the first message of the batch (which keeps its metadata); the other messages are dropped. Each message must be an object; a column it lacks is written as null when the column is \`optional\`, else as its type's zero value. When a message cannot be written every message of the batch carries on unchanged with its error flag set.

Columns of a group are ordered by name. \`TIMESTAMP\` columns take timestamps, RFC 3339 strings, or numbers already in \`default_timestamp_unit\`; \`JSON\` columns take any value and store it as JSON text; \`UUID\` columns take the usual hex form.

Differences from the reference: a \`repeated\` column is written as a standard three-level \`LIST\` (\`name.list.element\`), which readers give back as the same array; \`zstd\` pages are valid zstd frames of stored blocks (Node 20 has no zstd encoder), so they are not smaller than \`uncompressed\` ones. \`schema_metadata\` takes the reference's common schema format (\`{type: OBJECT, children: [...]}\`, as an object or JSON text) with the types \`BOOLEAN\`, \`INT32\`, \`INT64\`, \`FLOAT32\`, \`FLOAT64\`, \`STRING\`, \`BYTE_ARRAY\`, \`TIMESTAMP\`, \`UUID\`, \`OBJECT\` and \`ARRAY\`.`,
  fields,
  lint,
  examples: [
    {
      title: 'Writing a batch of messages as one Parquet file',
      config: `input:
  generate:
    count: 1000
    interval: ''
    batch_size: 1000
    mapping: 'root = {"id": counter(), "weight": random_int() % 100, "content": "hello"}'
pipeline:
  processors:
    - parquet_encode:
        schema:
          - name: id
            type: INT64
          - name: weight
            type: DOUBLE
          - name: content
            type: BYTE_ARRAY
        default_compression: gzip
output:
  file:
    path: './data/\${! timestamp_unix_nano() }.parquet'
    codec: all-bytes
`,
    },
  ],
  build: async (config, ctx): Promise<Processor> => {
    const logError = processorErrorLog(ctx.logger);
    const { parquetWriteBuffer } = await import('hyparquet-writer');
    const codec = CODECS[config.default_compression];
    const codecs = await compressors();
    const unit = config.default_timestamp_unit as TimestampUnit;
    const encoding = config.default_encoding as 'DELTA_LENGTH_BYTE_ARRAY' | 'PLAIN';
    const fixed = staticColumns(config.schema as Raw['schema']);
    const schemaMeta = config.schema_metadata;

    const encode = (batch: Batch): Uint8Array => {
      let columns = fixed;
      if (schemaMeta !== '') {
        const meta = batch[0]!.getMeta(schemaMeta);
        if (meta === undefined)
          throw new Error(`schema_metadata '${schemaMeta}' specified but field was missing from input data`);
        columns = columnsFromCommonSchema(meta);
      }
      const sorted = sortedColumns(columns);
      const data = sorted.map(() => new Array<unknown>(batch.length));
      batch.forEach((msg: Message, row) => {
        const value = msg.structured();
        if (!value || typeof value !== 'object' || Array.isArray(value) || value instanceof Uint8Array)
          throw new Error(
            `unable to encode message type ${Array.isArray(value) ? 'array' : typeof value} as parquet row`,
          );
        const obj = value as Record<string, unknown>;
        sorted.forEach((col, c) => {
          data[c]![row] = coerceValue(obj[col.name], col, unit);
        });
      });
      const buffer = parquetWriteBuffer({
        schema: schemaElements(sorted, unit),
        codec,
        compressors: codecs,
        createdBy: 'nekton',
        columnData: sorted.map((col, c) => ({
          name: col.name,
          data: data[c]!,
          ...(isByteArrayLeaf(col) ? { encoding } : {}),
        })),
      } as Parameters<typeof parquetWriteBuffer>[0]);
      return new Uint8Array(buffer);
    };

    return {
      process: (batch) => {
        if (batch.length === 0) return [];
        let file: Uint8Array;
        try {
          file = encode(batch);
        } catch (err) {
          // As the reference fails a batch: every message carries on unchanged, flagged.
          logError(err as Error);
          return [batch.map((m) => flagged(m, err))];
        }
        const out = batch[0]!.copy();
        out.setBytes(file);
        return [[out]];
      },
      close: async () => {},
    };
  },
});
