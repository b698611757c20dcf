// The `json_array` scanner: a stream holding one JSON array, one message per element.
import { defineComponent } from '../../config/spec.js';
import { Message } from '../../message/message.js';
import type { ByteSource, Scanner } from './scanner.js';
import { readToTheEnd } from './to_the_end.js';

// The array is parsed whole: JSON.parse beats any streaming parser for the sizes held in memory.
export const scanJsonArray: Scanner = async function* jsonArray(source: ByteSource, details) {
  for await (const [whole] of readToTheEnd(source, details)) {
    const value: unknown = (whole as Message).structured();
    if (!Array.isArray(value)) throw new TypeError('json_array scanner: the stream is not a JSON array');
    if (value.length > 0) yield value.map((element) => Message.fromStructured(element));
  }
};

export const spec = defineComponent({
  name: 'json_array',
  kind: 'scanner',
  status: 'stable',
  summary: 'Reads a stream holding one JSON array and emits each element as a message.',
  description:
    'The array is read whole, then each element becomes one message of a single batch, in order. A stream that is not a JSON array is an error; an empty array yields no message.',
  fields: [] as const,
  examples: [
    {
      title: 'Each element of an exported array',
      config: `input:
  file:
    paths: [ ./export.json ]
    scanner:
      json_array: {}
output:
  stdout: {}
`,
    },
  ],
  build: () => scanJsonArray,
});
