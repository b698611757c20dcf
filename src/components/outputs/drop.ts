// The `drop` output: accepts and discards everything (benchmarks, tests, sinks for side effects).
import type { ComponentSpec } from '../../config/spec.js';
import type { Output, OutputWriter } from '../../engine/component.js';

export class DropWriter implements OutputWriter {
  async connect(): Promise<void> {}
  async write(): Promise<void> {}
  async writeGroup(): Promise<void> {}
  async close(): Promise<void> {}
}

export const spec: ComponentSpec<Record<string, never>, Output> = {
  name: 'drop',
  kind: 'output',
  status: 'stable',
  categories: ['Utility'],
  summary: 'Discards every message and acknowledges it at once.',
  fields: [],
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
  build: (_config, ctx) => ctx.wrapWriter(new DropWriter(), { maxInFlight: 1024 }),
};
