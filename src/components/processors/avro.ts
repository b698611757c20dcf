// `avro`: converts messages between Avro (textual JSON, binary or single-object encoding) and
// JSON with a schema given inline or read from a file:// or http:// address (avsc).
import { readFile } from 'node:fs/promises';
import type avsc from 'avsc';
import { avscNow } from '../../base/lazy_packages.js';
import { type ConfigOf, defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { ConfigError, errorMessage } from '../../engine/errors.js';
import { perMessage, processorErrorLog } from '../../engine/processor_helpers.js';
import { parsesPlainly } from '../../message/json.js';
import type { Message } from '../../message/message.js';
import { rabinFingerprint, unwrapSingleObject, wrapSingleObject } from './avro_single_object.js';

const fields = [
  field.enum('operator', 'The [operator](#operators) to execute.', ['to_json', 'from_json']),
  field.enum(
    'encoding',
    'An Avro encoding format to use for conversions to and from a schema.',
    ['textual', 'binary', 'single'],
    {
      default: 'textual',
    },
  ),
  field.string('schema', 'A full Avro schema to use.', { default: '' }),
  field.string(
    'schema_path',
    'The path of a schema document to apply. Use either this or the `schema` field. URLs must begin with `file://` or `http://` (`file://` takes an absolute path).',
    {
      default: '',
      examples: ['file:///path/to/spec.avsc', 'http://localhost:8081/path/to/spec/versions/1'],
    },
  ),
] as const;

const NO_SCHEMA = 'a schema must be specified with either the `schema` or `schema_path` fields';
const BAD_SCHEMA_PATH = 'invalid schema_path provided, must start with file:// or http://';
const isSchemaUrl = (path: string) => path.startsWith('file://') || path.startsWith('http://');

async function loadSchema(config: ConfigOf<typeof fields>): Promise<string> {
  const path = config.schema_path;
  if (path === '') return config.schema;
  if (path.startsWith('file://')) {
    try {
      return await readFile(path.slice('file://'.length), 'utf8');
    } catch (err) {
      throw new ConfigError(`loading Avro schema definition: ${errorMessage(err)}`);
    }
  }
  if (path.startsWith('http://')) {
    try {
      const res = await fetch(path);
      if (!res.ok) throw new Error(`${path} returned ${res.status}`);
      return await res.text();
    } catch (err) {
      throw new ConfigError(`loading Avro schema definition: ${errorMessage(err)}`);
    }
  }
  throw new ConfigError(BAD_SCHEMA_PATH);
}

/** avsc's values (records, wrapped union branches, Buffers) as plain structured values. */
export function plain(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = plain(value[i]);
    return out;
  }
  if (Buffer.isBuffer(value)) return new Uint8Array(value);
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [k, plain(v)]));
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) out[k] = plain((value as Record<string, unknown>)[k]);
  return out;
}

/**
 * A JSON number that is negative zero: JSON.stringify writes it as 0, so a text holding one goes
 * the long way (parse, stringify), as it always did. Conservative: it may match inside a string.
 */
const NEGATIVE_ZERO = /-0(?:\.0*)?(?:[eE][+-]?\d+)?(?![\d.eE])/;

type Convert = (msg: Message) => Message;

function converter(type: avsc.Type, operator: string, encoding: string): Convert {
  const fingerprint = rabinFingerprint(JSON.stringify(type.schema()));
  // Structured values arrive as JSON; reading them as Avro's JSON encoding checks them against
  // the schema (unions tagged {"type": value}, bytes as strings of code points 0-255).
  const fromStructured = (msg: Message) => {
    // A message still in its JSON text is handed to avsc as that text (fromString parses it, as
    // the long way's JSON.stringify would have written it) when nothing is lost by it; any error
    // takes the long way for its message.
    if (!msg.hasStructure()) {
      const text = msg.text();
      if (parsesPlainly(text) && !NEGATIVE_ZERO.test(text)) {
        try {
          return type.fromString(text);
        } catch {
          // The long way below reports it.
        }
      }
    }
    let data: unknown;
    try {
      data = msg.structured();
    } catch (err) {
      throw new Error(`parsing message as structured: ${errorMessage(err)}`);
    }
    try {
      return type.fromString(JSON.stringify(data));
    } catch (err) {
      throw new Error(`converting JSON to Avro schema: ${errorMessage(err)}`);
    }
  };
  const toStructured = (msg: Message, read: (bytes: Uint8Array) => unknown) => {
    let value: unknown;
    try {
      value = read(msg.bytes());
    } catch (err) {
      throw new Error(`converting Avro document to JSON: ${errorMessage(err)}`);
    }
    const out = msg.copy();
    out.setStructured(plain(value));
    return out;
  };
  const withBytes = (msg: Message, bytes: Uint8Array | string) => {
    const out = msg.copy();
    out.setBytes(bytes);
    return out;
  };
  const decodeBinary = (bytes: Uint8Array) =>
    type.fromBuffer(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));

  if (operator === 'to_json') {
    if (encoding === 'textual')
      return (msg) => toStructured(msg, (bytes) => type.fromString(Buffer.from(bytes).toString('utf8')));
    if (encoding === 'binary') return (msg) => toStructured(msg, decodeBinary);
    return (msg) => toStructured(msg, (bytes) => decodeBinary(unwrapSingleObject(fingerprint, bytes)));
  }
  if (encoding === 'textual') return (msg) => withBytes(msg, type.toString(fromStructured(msg)));
  if (encoding === 'binary') return (msg) => withBytes(msg, type.toBuffer(fromStructured(msg)));
  return (msg) => withBytes(msg, wrapSingleObject(fingerprint, type.toBuffer(fromStructured(msg))));
}

export const spec = defineComponent({
  name: 'avro',
  kind: 'processor',
  status: 'stable',
  categories: ['Parsing'],
  summary: 'Converts messages between Avro and JSON with an Avro schema.',
  description: `If the messages come from or go to a schema registry service they carry a schema id prefix this processor does not handle.

## Operators

### \`to_json\`

Reads each message as an Avro document in the chosen \`encoding\` and makes it a structured (JSON) message. Unions are tagged with their branch's type name (\`{"string": "foo"}\`, \`{"my.namespace.address": {...}}\`), \`null\` stays \`null\`, bytes become bytes.

### \`from_json\`

Reads each message as JSON (unions tagged as above) and writes it as an Avro document in the chosen \`encoding\`.

Encodings: \`textual\` (Avro's JSON encoding), \`binary\` (the bare binary body), \`single\` (Avro's single-object encoding: \`C3 01\`, the schema's 8-byte CRC-64-AVRO fingerprint, then the binary body; a message written with another schema is refused). A message that cannot be converted carries on unchanged with its error flag set. Logical types are read and written as their underlying type (a \`timestamp-millis\` is a \`long\`); \`long\`s beyond 2^53 are refused.`,
  fields,
  lint: (config) => {
    if (config.schema_path !== '' && !isSchemaUrl(config.schema_path)) return [BAD_SCHEMA_PATH];
    return config.schema === '' && config.schema_path === '' ? [NO_SCHEMA] : [];
  },
  examples: [
    {
      title: 'JSON to binary Avro and back',
      config: `input:
  generate:
    count: 1
    mapping: 'root = {"Name": "foo", "Address": {"my.namespace.com.address": {"City": "foo", "State": "bar"}}}'
pipeline:
  processors:
    - avro:
        operator: from_json
        encoding: binary
        schema: &schema |
          {
            "namespace": "foo.namespace.com", "type": "record", "name": "identity",
            "fields": [
              { "name": "Name", "type": "string" },
              { "name": "Address", "default": null, "type": [ "null", {
                "namespace": "my.namespace.com", "type": "record", "name": "address",
                "fields": [ { "name": "City", "type": "string" }, { "name": "State", "type": "string" } ]
              } ] }
            ]
          }
    - avro:
        operator: to_json
        encoding: binary
        schema: *schema
output:
  stdout: {}
`,
    },
  ],
  build: async (config, ctx): Promise<Processor> => {
    const text = await loadSchema(config);
    // Also a lint; kept for a schema file that turns out empty.
    if (text === '') throw new ConfigError(NO_SCHEMA);
    let type: avsc.Type;
    try {
      type = avscNow().Type.forSchema(JSON.parse(text), { wrapUnions: true });
    } catch (err) {
      throw new ConfigError(`parsing schema: ${errorMessage(err)}`);
    }
    const logError = processorErrorLog(ctx.logger);
    return {
      process: perMessage(converter(type, config.operator, config.encoding), { onError: logError }),
      close: async () => {},
    };
  },
});
