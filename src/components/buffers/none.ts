// `none` buffer: a marker meaning "no buffer"; the engine connects the input straight to the pipeline.
import { defineComponent } from '../../config/spec.js';

/** What building `none` returns; the engine checks for it and skips buffering. */
export const NO_BUFFER = Symbol('no buffer');

export const spec = defineComponent({
  name: 'none',
  kind: 'buffer',
  status: 'stable',
  summary:
    'No buffer: the input is acknowledged only once its messages were delivered, which keeps the at-least-once guarantee. The default.',
  description:
    'Messages go from the input straight to the pipeline, one transaction at a time per pipeline thread; nothing is held in memory beyond what is in flight, and a message the outputs could not deliver is nacked back to the input.',
  fields: [] as const,
  examples: [
    {
      title: 'Explicitly no buffer',
      config: `input:
  generate:
    count: 1
    mapping: 'root = "hello"'
buffer:
  none: {}
output:
  stdout: {}
`,
    },
  ],
  build: (): typeof NO_BUFFER => NO_BUFFER,
});
