// `none` buffer: a marker meaning "no buffer"; the engine connects the input straight to the pipeline.
import type { ComponentSpec } from '../../config/spec.js';

export type NoneBufferConfig = Record<string, never>;

/** What building `none` returns; the engine checks for it and skips buffering. */
export const NO_BUFFER = Symbol('no buffer');

export const spec: ComponentSpec<NoneBufferConfig, typeof NO_BUFFER> = {
  name: 'none',
  kind: 'buffer',
  status: 'stable',
  summary:
    'No buffer: the input is acknowledged only once its messages were delivered, which keeps the at-least-once guarantee. The default.',
  fields: [],
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
  build: () => NO_BUFFER,
};
