// `insert_part`: adds a message, its content interpolated, to a batch at an index.
import { defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { processorErrorLog } from '../../engine/processor_helpers.js';
import type { Batch } from '../../message/message.js';

/** Where the new message goes in a batch of `length`: negative counts from the end (-1 = last). */
export function insertionIndex(index: number, length: number): number {
  if (index < 0) return Math.max(length + index + 1, 0);
  return Math.min(index, length);
}

export const spec = defineComponent({
  name: 'insert_part',
  kind: 'processor',
  status: 'stable',
  categories: ['Composition'],
  summary:
    'Insert a new message into a batch at an index. If the specified index is greater than the length of the existing batch it will be appended to the end.',
  description: `A negative index counts back from the end: -1 makes the new message the last of the batch, -2 puts it before the last, and so on; one past the start inserts it first.

The new message copies the metadata of the first message of the batch, and \`content\` is interpolated against that first message. When the interpolation fails the batch passes on unchanged (the error is logged), as in the reference.`,
  fields: [
    field.int('index', 'The index within the batch to insert the message at.', { default: -1 }),
    field.interpolated('content', 'The content of the message being inserted.', { default: '' }),
  ],
  examples: [
    {
      title: 'Add a header message to each batch',
      config: `input:
  generate:
    count: 4
    batch_size: 2
    interval: ''
    mapping: 'root = {"n": counter()}'
pipeline:
  processors:
    - insert_part:
        index: 0
        content: 'batch of \${! batch_size() }'
output:
  stdout: {}
`,
    },
  ],
  build: (config, ctx): Processor => {
    const content = config.content;
    const logError = processorErrorLog(ctx.logger);
    return {
      process: (batch: Batch) => {
        const first = batch[0];
        if (first === undefined) return [];
        let text: string;
        try {
          text = content.render(batch, 0);
        } catch (err) {
          logError(new Error(`content interpolation error: ${(err as Error).message}`));
          return [batch];
        }
        const inserted = first.copy();
        inserted.setBytes(text);
        const out = [...batch];
        out.splice(insertionIndex(config.index, batch.length), 0, inserted);
        return [out];
      },
      close: async () => {},
    };
  },
});
