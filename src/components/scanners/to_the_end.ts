// The `to_the_end` scanner: the whole stream as one message.
import { defineComponent } from '../../config/spec.js';
import { Message } from '../../message/message.js';
import { asBuffer, type ByteSource, type Scanner } from './scanner.js';

export const readToTheEnd: Scanner = async function* readAll(source: ByteSource) {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const raw of source) {
    const chunk = asBuffer(raw);
    parts.push(chunk);
    size += chunk.length;
  }
  yield [new Message(parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, size))];
};

export const spec = defineComponent({
  name: 'to_the_end',
  kind: 'scanner',
  status: 'stable',
  summary: 'Reads the whole stream into a single message.',
  description:
    'Use it for documents that must stay whole (a JSON file, an image). The stream is held in memory.',
  fields: [] as const,
  examples: [
    {
      title: 'Each file as one message',
      config: `input:
  file:
    paths: [ ./docs/*.json ]
    scanner:
      to_the_end: {}
output:
  stdout: {}
`,
    },
  ],
  build: () => readToTheEnd,
});
