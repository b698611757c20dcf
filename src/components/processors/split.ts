// `split`: breaks a batch into smaller batches by message count and, optionally, total bytes.
import { defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import type { Batch, Message } from '../../message/message.js';

/** Splits in order; a message alone larger than byteSize still forms its own batch. */
export function splitBatch(batch: Batch, size: number, byteSize: number): Batch[] {
  if (batch.length === 0) return [];
  if (byteSize <= 0 && (size <= 0 || batch.length <= size)) return [batch];
  const out: Batch[] = [];
  let current: Message[] = [];
  let bytes = 0;
  for (const msg of batch) {
    const msgBytes = byteSize > 0 ? msg.byteSize() : 0;
    const full = (size > 0 && current.length >= size) || (byteSize > 0 && bytes + msgBytes > byteSize);
    if (full && current.length > 0) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(msg);
    bytes += msgBytes;
  }
  if (current.length > 0) out.push(current);
  return out;
}

export const spec = defineComponent({
  name: 'split',
  kind: 'processor',
  status: 'stable',
  categories: ['Utility'],
  summary:
    'Breaks a batch into smaller batches of at most `size` messages and, when `byte_size` is above zero, at most that many bytes, whichever limit is reached first.',
  description:
    'The remainder forms a last, smaller batch: a batch of 95 messages with `size: 10` becomes nine batches of 10 and one of 5. A single message larger than `byte_size` travels alone. To break one message into many use `unarchive`.',
  fields: [
    field.int('size', 'The most messages per resulting batch; 0 sets no count limit.', { default: 1 }),
    field.int('byte_size', 'The most bytes of content per resulting batch; 0 sets no byte limit.', {
      default: 0,
    }),
  ],
  examples: [
    {
      title: 'Batches of at most 10 messages or 1 MB',
      config: `input:
  generate:
    count: 25
    interval: ''
    mapping: 'root = counter()'
pipeline:
  processors:
    - split:
        size: 10
        byte_size: 1048576
output:
  stdout: {}
`,
    },
  ],
  build: (config): Processor => ({
    process: (batch) => splitBatch(batch, config.size, config.byte_size),
    close: async () => {},
  }),
});
