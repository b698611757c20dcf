// `processors`: a list of processors run as one, e.g. to label, mock or reuse them together.
import { defineRootComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import type { ComponentConfig } from '../../engine/context.js';
import { buildChildren, closeAll, runChildren } from './stepwise.js';

export type ProcessorsConfig = ComponentConfig[];

export const spec = defineRootComponent({
  name: 'processors',
  kind: 'processor',
  status: 'stable',
  categories: ['Composition'],
  summary: 'A processor grouping several sub-processors.',
  description:
    'Collects processors under one name or label, to make a config easier to read or to mock the whole group in config tests. The children behave exactly as they would in any other list of processors.',
  root: field.array(field.component('processor', '', 'The processors to run, in order.', { default: [] })),
  examples: [
    {
      title: 'Grouped processing',
      config: `input:
  generate:
    count: 2
    batch_size: 2
    interval: ''
    mapping: 'root = {"n": counter()}'
pipeline:
  processors:
    - label: my_super_feature
      processors:
        - log:
            message: "Let's do something cool"
        - archive:
            format: json_array
        - mapping: root.items = this
output:
  stdout: {}
`,
    },
  ],
  build: async (config, ctx): Promise<Processor> => {
    const children: Processor[] = await buildChildren(config, ctx);
    return {
      process: (batch) => (batch.length === 0 ? [] : runChildren(children, batch)),
      close: () => closeAll(children),
    };
  },
});
