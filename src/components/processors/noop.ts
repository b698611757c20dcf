// `noop`: passes every batch through unchanged (a placeholder, or a way to disable a step).
import { defineComponent } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';

export type NoopConfig = Record<string, never>;

export const spec = defineComponent({
  name: 'noop',
  kind: 'processor',
  status: 'stable',
  summary: 'Does nothing: every batch passes through unchanged.',
  description:
    'Useful as a placeholder: an empty `switch` case, a `processors` list that must not be empty, or a resource that is swapped for a real processor later.',
  fields: [],
  examples: [
    {
      title: 'A placeholder step',
      config: `input:
  generate:
    count: 1
    mapping: 'root = "hello"'
pipeline:
  processors:
    - noop: {}
output:
  stdout: {}
`,
    },
  ],
  build: (): Processor => ({
    process: (batch) => [batch],
    close: async () => {},
  }),
});
