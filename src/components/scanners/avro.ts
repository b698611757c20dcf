// The `avro` scanner: one JSON message per datum of an Avro object container file (OCF), read as
// a stream through avsc's block decoder (codecs null, deflate and snappy).
import { Readable } from 'node:stream';
import type avsc from 'avsc';
import { OutputBudget } from '../../base/decompression/limit.js';
import { snappyDecode } from '../../base/decompression/snappy.js';
import { avscNow } from '../../base/lazy_packages.js';
import { defineComponent, field } from '../../config/spec.js';
import { Message } from '../../message/message.js';
import { rabinFingerprint } from '../processors/avro_single_object.js';
import { asBuffer, type ByteSource, type Scanner } from './scanner.js';

type Codec = (buf: Buffer, cb: (err: Error | null, out?: Buffer) => void) => void;

/** Avro's snappy blocks end with the CRC-32 of the uncompressed data, not checked here. */
const snappyCodec: Codec = (buf, cb) => {
  try {
    // A block is checked against its declared length before it is decoded (no zero-filled tail).
    const out = snappyDecode(buf.subarray(0, buf.length - 4), new OutputBudget(Number.MAX_SAFE_INTEGER));
    cb(null, Buffer.from(out.buffer, out.byteOffset, out.byteLength));
  } catch (err) {
    cb(err as Error);
  }
};

let codecsMade: Record<string, Codec> | undefined;
const codecs = (): Record<string, Codec> =>
  (codecsMade ??= {
    ...(avscNow().streams.BlockDecoder.defaultCodecs() as Record<string, Codec>),
    snappy: snappyCodec,
  });

/** Standard JSON of a decoded datum: bytes and fixed as strings of code points, as Avro JSON has them. */
function rawJson(value: unknown): string {
  return JSON.stringify(value, function replace(this: unknown, key: string, v: unknown) {
    const original = (this as Record<string, unknown>)[key];
    if (Buffer.isBuffer(original)) return original.toString('latin1');
    return v;
  });
}

/** The schema's fingerprint as the reference reads it: the 8 fingerprint bytes as a big-endian uint64. */
function fingerprint(canonical: string): number | bigint {
  const bytes = rabinFingerprint(canonical);
  const n = new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, false);
  return n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
}

function avroScanner(raw: boolean): Scanner {
  return async function* readAvro(source: ByteSource) {
    const input = Readable.from(
      (async function* bytes() {
        for await (const chunk of source) yield asBuffer(chunk);
      })(),
      { objectMode: false },
    );
    const decoder = new (avscNow().streams.BlockDecoder)({
      codecs: codecs(),
      // Avro JSON tags union values with their branch; raw JSON gives the bare value.
      parseHook: (schema: avsc.Schema) => avscNow().Type.forSchema(schema, { wrapUnions: !raw }),
    });
    let type: avsc.Type | null = null;
    let canonical = '';
    let fp: number | bigint = 0;
    decoder.on('metadata', (t: avsc.Type) => {
      type = t;
      canonical = JSON.stringify(t.schema());
      fp = fingerprint(canonical);
    });
    input.on('error', (err) => decoder.destroy(err));
    input.pipe(decoder);
    try {
      for await (const datum of decoder as AsyncIterable<unknown>) {
        const json = raw ? rawJson(datum) : (type as avsc.Type | null)!.toString(datum);
        const msg = new Message(json);
        msg.setMeta('avro_schema', canonical);
        msg.setMeta('avro_schema_fingerprint', fp);
        yield [msg];
      }
    } catch (err) {
      throw new Error(`reading OCF datum: ${(err as Error).message}`);
    }
  };
}

export const spec = defineComponent({
  name: 'avro',
  kind: 'scanner',
  status: 'stable',
  summary: 'Consume a stream of Avro OCF datum.',
  description: `Each datum of an Avro object container file becomes a JSON message. Blocks compressed with \`deflate\` or \`snappy\` are read too.

### Avro JSON format

This scanner yields documents formatted as [Avro JSON](https://avro.apache.org/docs/current/specification/_print/#json-encoding) when decoding with Avro schemas. In this format the value of a union is encoded in JSON as follows:

- if its type is \`null\`, then it is encoded as a JSON \`null\`;
- otherwise it is encoded as a JSON object with one name/value pair whose name is the type's name and whose value is the recursively encoded value. For Avro's named types (record, fixed or enum) the user-specified name is used, for other types the type name is used.

For example, the union schema \`["null","string","Foo"]\`, where \`Foo\` is a record name, would encode:

- \`null\` as \`null\`;
- the string \`"a"\` as \`{"string": "a"}\`; and
- a \`Foo\` instance as \`{"Foo": {...}}\`, where \`{...}\` indicates the JSON encoding of a \`Foo\` instance.

However, it is possible to instead create documents in standard/raw JSON format by setting the field \`raw_json\` to \`true\`.

This scanner also emits the canonical Avro schema as \`@avro_schema\` metadata, along with the schema's fingerprint available via \`@avro_schema_fingerprint\`.

Logical types are written as their underlying Avro type (a \`timestamp-millis\` as its long), without the reference's type tags.`,
  fields: [
    field.bool(
      'raw_json',
      'Whether messages should be decoded into normal JSON rather than [Avro JSON](https://avro.apache.org/docs/current/specification/_print/#json-encoding). When true, union values are unwrapped (bare values instead of {"type": value} wrappers).',
      { default: false, advanced: true },
    ),
  ],
  examples: [
    {
      title: 'Each record of Avro files as a JSON message',
      config: `input:
  file:
    paths: [ ./data/*.avro ]
    scanner:
      avro:
        raw_json: true
output:
  stdout: {}
`,
    },
  ],
  build: (config) => avroScanner(config.raw_json),
});
