// The `drop` output: accepts and discards everything (benchmarks, tests, sinks for side effects).
import { defineComponent } from '../../config/spec.js';
import type { Output, OutputWriter } from '../../engine/component.js';

/** Every write is done at once: one settled promise serves them all (no async frame per write). */
const DONE: Promise<void> = Promise.resolve();

export class DropWriter implements OutputWriter {
  async connect(): Promise<void> {}
  write(): Promise<void> {
    return DONE;
  }
  writeGroup(): Promise<void> {
    return DONE;
  }
  async close(): Promise<void> {}
}

export const spec = defineComponent({
  name: 'drop',
  kind: 'output',
  status: 'stable',
  categories: ['Utility'],
  summary: 'Discards every message and acknowledges it at once.',
  description:
    'Useful to measure an input and pipeline alone, or to end a branch of a broker that only exists for its side effects (metrics, logs, caches). Nothing is written anywhere.',
  fields: [] as const,
  examples: [
    {
      title: 'Only the side effects of the pipeline matter',
      config: `input:
  stdin: {}
pipeline:
  processors:
    - log:
        message: '\${! content() }'
output:
  drop: {}
`,
    },
  ],
  // Many writes in flight: discarding never needs ordering.
  build: (_config, ctx): Output => ctx.wrapWriter(new DropWriter(), { maxInFlight: 1024 }),
});
