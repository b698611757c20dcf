// `protobuf`: converts messages between protobuf and JSON with .proto files read from disk at
// build time (protobufjs), following the proto3 JSON mapping as the reference does.
import type protobuf from 'protobufjs';
import { type ConfigOf, defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { ConfigError, errorMessage } from '../../engine/errors.js';
import { perMessage, processorErrorLog } from '../../engine/processor_helpers.js';
import { parseJson } from '../../message/json.js';
import type { Message } from '../../message/message.js';
import { ProtoJsonReader } from './protobuf_from_json.js';
import { findMessageType, loadProtoRoot } from './protobuf_schema.js';
import { ProtoJsonWriter } from './protobuf_to_json.js';

type Convert = (msg: Message) => Message;

function toJson(
  root: protobuf.Root,
  type: protobuf.Type,
  config: ProtobufConfig,
  structured: boolean,
): Convert {
  const writer = new ProtoJsonWriter(root, {
    useProtoNames: config.use_proto_names,
    useEnumNumbers: config.use_enum_numbers,
    structured,
  });
  const name = config.message;
  return (msg) => {
    let decoded: Record<string, unknown>;
    try {
      decoded = type.decode(msg.bytes()) as unknown as Record<string, unknown>;
    } catch (err) {
      throw new Error(`failed to unmarshal protobuf message '${name}': ${errorMessage(err)}`);
    }
    let value: unknown;
    try {
      value = writer.message(type, decoded);
    } catch (err) {
      throw new Error(`failed to marshal JSON protobuf message '${name}': ${errorMessage(err)}`);
    }
    const out = msg.copy();
    if (structured) out.setStructured(value);
    else out.setBytes(JSON.stringify(value));
    return out;
  };
}

function fromJson(root: protobuf.Root, type: protobuf.Type, config: ProtobufConfig): Convert {
  const reader = new ProtoJsonReader(root, config.discard_unknown);
  const name = config.message;
  return (msg) => {
    let bytes: Uint8Array;
    try {
      bytes = type.encode(reader.message(type, parseJson(msg.text()))).finish();
    } catch (err) {
      throw new Error(`unmarshalling JSON message '${name}': ${errorMessage(err)}`);
    }
    const out = msg.copy();
    out.setBytes(bytes);
    return out;
  };
}

export function lintProtobuf(config: Partial<ProtobufConfig>): string[] {
  const paths = config.import_paths;
  const bsr = config.bsr ?? [];
  if (paths === undefined && bsr.length === 0) return ['at least one of `import_paths`and `bsr` must be set'];
  if (paths !== undefined && paths.length > 0 && bsr.length > 0)
    return ["both `import_paths` and `bsr` can't be set simultaneously"];
  return [];
}

/** What the reference only finds when it builds, said at lint: what nekton cannot run, and an empty message name. */
function lintBuildable(config: Partial<ProtobufConfig>): string[] {
  if ((config.bsr ?? []).length > 0) return ['bsr: the Buf Schema Registry is not supported by nekton'];
  if (config.message === '') return ['message field must not be empty'];
  return [];
}

const fields = [
  field.string('operator', 'The [operator](#operators) to execute.', {
    options: ['to_json', 'from_json', 'decode'],
  }),
  field.string('message', 'The fully qualified name of the protobuf message to convert to/from.'),
  field.bool(
    'discard_unknown',
    'If `true`, the `from_json` operator discards fields that are unknown to the schema.',
    {
      default: false,
    },
  ),
  field.bool(
    'use_proto_names',
    'If `true`, the `to_json` or `decode` operator writes field names exactly as named in the schema file.',
    { default: false },
  ),
  field.array(
    field.string(
      'import_paths',
      'Directories holding the .proto files, including every definition the target message needs. Each directory is walked and every .proto file found is imported. If left empty the current directory is used.',
      { default: [] },
    ),
  ),
  field.bool(
    'use_enum_numbers',
    'If `true`, the `to_json` or `decode` operator writes enums as numbers instead of names.',
    { default: false },
  ),
  field.array(
    field.object(
      'bsr',
      'Buf Schema Registry configuration (accepted for compatibility; not supported, a config that sets it does not build).',
      [
        field.string(
          'module',
          "Module to fetch from a Buf Schema Registry e.g. 'buf.build/exampleco/mymodule'.",
        ),
        field.string('url', 'Buf Schema Registry URL, leave blank to extract from module.', {
          default: '',
          advanced: true,
        }),
        field.string(
          'api_key',
          'Buf Schema Registry server API key, can be left blank for a public registry.',
          {
            default: '',
            secret: true,
          },
        ),
        field.string('version', 'Version to retrieve from the Buf Schema Registry, leave blank for latest.', {
          default: '',
          advanced: true,
        }),
      ],
      { default: [] },
    ),
  ),
] as const;

export type ProtobufConfig = ConfigOf<typeof fields>;

export const spec = defineComponent({
  name: 'protobuf',
  kind: 'processor',
  status: 'stable',
  categories: ['Parsing'],
  summary: 'Converts messages to or from protobuf, with the message types read from .proto files.',
  description: `The .proto files are read when the processor is built: every \`.proto\` file under each directory of \`import_paths\` (relative to the working directory; files whose names start with a dot are skipped), with \`import\` statements resolved against the same directories and Google's well-known types (\`google/protobuf/timestamp.proto\`, \`any.proto\`, ...) built in. A missing directory, a file that does not parse, an import that cannot be found or a \`message\` that is not defined stops the config from building, naming the problem.

JSON follows the [proto3 JSON mapping](https://protobuf.dev/programming-guides/json/): field names in lowerCamelCase (or as written in the schema with \`use_proto_names\`), fields at their zero value left out, 64-bit integers as strings, enums by name (or number with \`use_enum_numbers\`), bytes as base64, \`Timestamp\` as RFC 3339 text, \`Duration\` as \`"1.5s"\`, \`Any\` as an object with an \`@type\`.

## Operators

### \`to_json\`

Reads each message as the protobuf \`message\` and writes it as proto3 JSON.

### \`from_json\`

Reads each message as proto3 JSON (by JSON or schema field names) and writes it as the protobuf \`message\`. A field the schema does not know is an error unless \`discard_unknown\` is set.

### \`decode\`

Like \`to_json\` but the result is a structured value rather than JSON text: 64-bit integers stay numbers, bytes stay bytes and \`Timestamp\`s become timestamps.

A message that cannot be converted carries on unchanged with its error flag set (for \`catch\`/\`try\`). The Buf Schema Registry (\`bsr\`) is not supported: a config that sets it does not build.`,
  fields,
  lint: (config) => {
    const problems = lintProtobuf(config);
    return problems.length > 0 ? problems : lintBuildable(config);
  },
  examples: [
    {
      title: 'JSON to protobuf and back',
      config: `input:
  generate:
    count: 1
    mapping: 'root = {"firstName": "caleb", "age": 30}'
pipeline:
  processors:
    - protobuf:
        operator: from_json
        message: testing.Person
        import_paths: [ examples/protobuf ]
    - protobuf:
        operator: to_json
        message: testing.Person
        import_paths: [ examples/protobuf ]
output:
  stdout: {}
`,
    },
  ],
  build: (config, ctx): Processor => {
    if (config.bsr.length > 0)
      throw new ConfigError(`${ctx.path}.protobuf.bsr: the Buf Schema Registry is not supported by nekton`);
    const root = loadProtoRoot(config.import_paths);
    const type = findMessageType(root, config.message, config.import_paths);
    const convert =
      config.operator === 'from_json'
        ? fromJson(root, type, config)
        : toJson(root, type, config, config.operator === 'decode');
    const logError = processorErrorLog(ctx.logger);
    return { process: perMessage(convert, { onError: logError }), close: async () => {} };
  },
});
