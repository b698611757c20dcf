// `for_each`: runs processors over each message of a batch as a batch of its own.
import { defineRootComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { LanesProcessor } from './lanes_processor.js';
import { buildChildren } from './stepwise.js';

export const spec = defineRootComponent({
  name: 'for_each',
  kind: 'processor',
  status: 'stable',
  categories: ['Composition'],
  summary: 'Runs a list of processors on each message of a batch as if it were a batch of its own.',
  description:
    'Batch-wide processors (such as those that count, group or look at `batch_size()`) then see one message at a time. The results are joined back into one batch in the original order.',
  root: field.array(
    field.component('processor', '', 'The processors to run on each message.', { default: [] }),
  ),
  examples: [
    {
      title: 'Treat every message of a batch alone',
      config: `input:
  generate:
    count: 4
    batch_size: 2
    interval: ''
    mapping: 'root = {"n": counter()}'
pipeline:
  processors:
    - for_each:
        - mapping: 'root.batch_size = batch_size()'
output:
  stdout: {}
`,
    },
  ],
  build: async (config, ctx): Promise<Processor> =>
    new LanesProcessor(await buildChildren(config, ctx), null),
});
