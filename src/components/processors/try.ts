// `try`: runs processors on each message in turn and stops at the first one that fails it.
import { defineRootComponent, field } from '../../config/spec.js';
import type { ComponentConfig } from '../../engine/context.js';
import type { Batch } from '../../message/message.js';
import { LanesProcessor } from './lanes_processor.js';
import { buildChildren } from './stepwise.js';

export type TryConfig = ComponentConfig[];

/** A lane keeps going while its (one-message) batch carries no error. */
const notErrored = (batch: Batch): boolean => batch[0]?.error === null;

export const spec = defineRootComponent({
  name: 'try',
  kind: 'processor',
  status: 'stable',
  categories: ['Composition'],
  summary: 'Runs a list of processors on each message, skipping the rest for a message once one fails it.',
  description: `Each message goes through the child processors on its own, like \`for_each\`. A message that already failed before the block, or fails inside it, skips every remaining child and leaves with its error flag still set, so a following \`catch\` can handle it.

Use it when later steps depend on earlier ones having worked.`,
  root: field.array(field.component('processor', '', 'The processors to run, in order.', { default: [] })),
  examples: [
    {
      title: 'Stop at the first failing step',
      config: `input:
  generate:
    count: 1
    interval: ''
    mapping: 'root = {"price": "12"}'
pipeline:
  processors:
    - try:
        - mapping: 'root.total = this.price * 2'
        - mapping: 'root.message = "total is " + this.total.string()'
    - catch:
        - log:
            message: 'pricing failed: \${! error() }'
output:
  stdout: {}
`,
    },
  ],
  build: async (config, ctx) => new LanesProcessor(await buildChildren(config, ctx), notErrored),
});
