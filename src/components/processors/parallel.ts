// `parallel`: runs processors on each message of a batch as a batch of its own (like
// `for_each`), on up to `cap` messages at the same time; results keep the batch's order.
import { type ComponentSpec, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import type { ComponentConfig } from '../../engine/context.js';
import type { Batch } from '../../message/message.js';
import { buildChildren, closeAll, runChildren } from './stepwise.js';

export interface ParallelConfig {
  cap: number;
  processors: ComponentConfig[];
}

export class ParallelProcessor implements Processor {
  constructor(
    private readonly children: Processor[],
    private readonly cap: number,
  ) {}

  async process(batch: Batch): Promise<Batch[]> {
    const results: Batch[] = new Array(batch.length);
    let next = 0;
    // Each worker takes the next message until none is left, so at most `cap` run at once.
    const worker = async () => {
      while (next < batch.length) {
        const i = next++;
        const produced = await runChildren(this.children, [batch[i]!]);
        results[i] = produced.flat();
      }
    };
    const workers = this.cap > 0 ? Math.min(this.cap, batch.length) : batch.length;
    await Promise.all(Array.from({ length: workers }, worker));
    const out = results.flat();
    return out.length > 0 ? [out] : [];
  }

  close(): Promise<void> {
    return closeAll(this.children);
  }
}

export const spec: ComponentSpec<ParallelConfig, Processor> = {
  name: 'parallel',
  kind: 'processor',
  status: 'stable',
  categories: ['Composition'],
  summary:
    'Runs a list of processors on each message of a batch as if it were a batch of its own (like `for_each`), on the messages at the same time.',
  description:
    'Worth it when the processors wait on something slow (`http`, `cache`, ...). `cap`, when above zero, limits how many messages are processed at once. The results are joined back into one batch in the original order. Only useful on batches (see `batching`).',
  fields: [
    field.int('cap', 'The most messages to process at the same time; 0 means no limit.', { default: 0 }),
    field.array(field.component('processor', 'processors', 'The processors to run on each message.')),
  ],
  examples: [
    {
      title: 'Look up every message of a batch at once',
      config: `input:
  generate:
    count: 4
    batch_size: 4
    interval: ''
    mapping: 'root = {"id": "k%d".format(counter())}'
cache_resources:
  - label: names
    memory:
      init_values:
        k1: one
pipeline:
  processors:
    - parallel:
        cap: 2
        processors:
          - branch:
              request_map: 'root = this.id'
              processors:
                - cache:
                    resource: names
                    operator: get
                    key: '\${! content() }'
              result_map: 'root.name = content().string()'
output:
  stdout: {}
`,
    },
  ],
  build: async (config, ctx) =>
    new ParallelProcessor(await buildChildren(config.processors, ctx), config.cap),
};
