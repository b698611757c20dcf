// `select_parts`: picks messages of a batch by index, in the order the indexes are listed.
import { defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import type { Batch } from '../../message/message.js';

/** The messages at `parts` (negative counts from the end; out of range skipped), each a copy. */
export function selectParts(batch: Batch, parts: readonly number[]): Batch {
  const out: Batch = [];
  for (const part of parts) {
    const index = part < 0 ? batch.length + part : part;
    if (index < 0 || index >= batch.length) continue;
    // A copy: the same message picked twice becomes two messages.
    out.push((batch[index] as Batch[number]).copy());
  }
  return out;
}

export const spec = defineComponent({
  name: 'select_parts',
  kind: 'processor',
  status: 'stable',
  categories: ['Utility'],
  summary:
    'Cherry pick a set of messages from a batch by their index. Indexes larger than the number of messages are simply ignored.',
  description: `The selected messages form the new batch in the order of \`parts\`: with \`parts: [2, 0, 1]\` the batch \`['0', '1', '2', '3']\` becomes \`['2', '0', '1']\`. An index may be listed twice (the message is copied). Negative indexes count back from the end, -1 being the last message.

When none of the indexes exist in the batch, the batch is dropped (and acknowledged). It works across a batch, so batch the messages first.`,
  fields: [
    field.array(
      field.int(
        'parts',
        'An array of message indexes of a batch. Indexes can be negative, and if so the part will be selected from the end counting backwards starting from -1.',
        { default: [] },
      ),
    ),
  ],
  examples: [
    {
      title: 'Keep the first and last message of each batch',
      config: `input:
  generate:
    count: 6
    batch_size: 3
    interval: ''
    mapping: 'root = counter()'
pipeline:
  processors:
    - select_parts:
        parts: [0, -1]
output:
  stdout: {}
`,
    },
  ],
  build: (config): Processor => ({
    process: (batch) => {
      const out = selectParts(batch, config.parts);
      return out.length > 0 ? [out] : [];
    },
    close: async () => {},
  }),
});
