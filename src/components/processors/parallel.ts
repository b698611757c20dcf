// `parallel`: runs processors on each message of a batch as a batch of its own, several at once.
import { defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import type { Batch } from '../../message/message.js';
import { buildChildren, closeAll, runChildren } from './stepwise.js';

/**
 * Runs `children` over each message alone, at most `cap` at a time (0: all at once), and joins
 * the results in the original order. A child that throws fails the whole batch (redelivered).
 */
export async function processInParallel(
  children: readonly Processor[],
  batch: Batch,
  cap: number,
): Promise<Batch[]> {
  const results: Batch[][] = new Array(batch.length);
  let next = 0;
  const worker = async () => {
    while (next < batch.length) {
      const index = next++;
      results[index] = await runChildren(children, [batch[index] as Batch[number]]);
    }
  };
  const workers = cap > 0 ? Math.min(cap, batch.length) : batch.length;
  await Promise.all(Array.from({ length: workers }, worker));
  const out: Batch = [];
  for (const batches of results) for (const b of batches) for (const m of b) out.push(m);
  return out.length > 0 ? [out] : [];
}

export const spec = defineComponent({
  name: 'parallel',
  kind: 'processor',
  status: 'stable',
  categories: ['Composition'],
  summary:
    'Applies a list of child processors to messages of a batch as though they were each a batch of one message (like `for_each`), but with the messages processed in parallel.',
  description:
    'Worth it when the children wait on something (`http`, `cache`, `redis`, `sql_*`): the waits overlap. `cap`, when above zero, is the most messages in flight at once. The results are joined back into one batch in the original order. It works across a batch, so batch the messages first.',
  fields: [
    field.int('cap', 'The maximum number of messages to have processing at a given time.', { default: 0 }),
    field.array(field.component('processor', 'processors', 'A list of child processors to apply.')),
  ],
  examples: [
    {
      title: 'Four lookups at a time',
      config: `input:
  generate:
    count: 8
    batch_size: 8
    interval: ''
    mapping: 'root = {"n": counter()}'
pipeline:
  processors:
    - parallel:
        cap: 4
        processors:
          - sleep:
              duration: 10ms
          - mapping: 'root.done = true'
output:
  stdout: {}
`,
    },
  ],
  build: async (config, ctx): Promise<Processor> => {
    const children = await buildChildren(config.processors, ctx);
    return {
      process: (batch) => processInParallel(children, batch, config.cap),
      close: () => closeAll(children),
    };
  },
});
