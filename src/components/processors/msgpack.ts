// `msgpack`: converts messages between MessagePack and JSON.
import { defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { errorMessage } from '../../engine/errors.js';
import { perMessage, processorErrorLog } from '../../engine/processor_helpers.js';
import type { Message } from '../../message/message.js';
import { fromMsgpack, toMsgpack } from '../../message/msgpack.js';

const toJson = (msg: Message): Message => {
  let value: unknown;
  try {
    value = fromMsgpack(msg.bytes());
  } catch (err) {
    throw new Error(`converting MsgPack document to JSON: ${errorMessage(err)}`);
  }
  const out = msg.copy();
  out.setStructured(value);
  return out;
};

const fromJson = (msg: Message): Message => {
  let value: unknown;
  try {
    value = msg.structured();
  } catch (err) {
    throw new Error(`parsing message as JSON: ${errorMessage(err)}`);
  }
  let bytes: Uint8Array;
  try {
    bytes = toMsgpack(value);
  } catch (err) {
    throw new Error(`converting JSON to MsgPack: ${errorMessage(err)}`);
  }
  const out = msg.copy();
  out.setBytes(bytes);
  return out;
};

export const spec = defineComponent({
  name: 'msgpack',
  kind: 'processor',
  status: 'stable',
  categories: ['Parsing'],
  summary: 'Converts messages to or from the [MessagePack](https://msgpack.org/) format.',
  description:
    'Integers are written in their smallest MessagePack form, other numbers as 64-bit floats, timestamps with the timestamp extension. A message that cannot be converted carries on unchanged with its error flag set.',
  fields: [
    field.enum(
      'operator',
      'The operation to perform on messages: `to_json` converts MessagePack messages to JSON, `from_json` converts JSON messages to MessagePack.',
      ['from_json', 'to_json'],
    ),
  ],
  examples: [
    {
      title: 'JSON to MessagePack and back',
      config: `input:
  generate:
    count: 1
    mapping: 'root = {"id": 123, "tags": ["a", "b"]}'
pipeline:
  processors:
    - msgpack:
        operator: from_json
    - msgpack:
        operator: to_json
output:
  stdout: {}
`,
    },
  ],
  build: (config, ctx): Processor => {
    const logError = processorErrorLog(ctx.logger);
    const convert = config.operator === 'to_json' ? toJson : fromJson;
    return { process: perMessage(convert, { onError: logError }), close: async () => {} };
  },
});
