// `processors`: a list of processors run in sequence, as one processor (handy in a resource).
import { type ComponentSpec, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import type { ComponentConfig } from '../../engine/context.js';
import type { Batch } from '../../message/message.js';
import { buildChildren, closeAll, runChildren } from './stepwise.js';

export type ProcessorsConfig = ComponentConfig[];

export class ProcessorListProcessor implements Processor {
  constructor(private readonly children: Processor[]) {}

  process(batch: Batch): Batch[] | Promise<Batch[]> {
    if (batch.length === 0) return [];
    return runChildren(this.children, batch);
  }

  close(): Promise<void> {
    return closeAll(this.children);
  }
}

export const spec: ComponentSpec<ProcessorsConfig, Processor> = {
  name: 'processors',
  kind: 'processor',
  status: 'stable',
  categories: ['Composition'],
  summary: 'Runs a list of processors in sequence, as one processor.',
  description:
    'Useful where one processor is expected but several are wanted, such as a `switch` case, a processor resource, or the `processors` of a `branch` shared between configs. Each child gets the batches the one before it produced.',
  fields: [],
  root: field.array(field.component('processor', '', 'The processors to run, in order.', { default: [] })),
  examples: [
    {
      title: 'Two steps in one processor resource',
      config: `input:
  generate:
    count: 2
    interval: ''
    mapping: 'root = {"n": counter()}'
pipeline:
  processors:
    - resource: tidy
processor_resources:
  - label: tidy
    processors:
      - mapping: 'root.doubled = this.n * 2'
      - mutation: 'root.n = deleted()'
output:
  stdout: {}
`,
    },
  ],
  build: async (config, ctx) => new ProcessorListProcessor(await buildChildren(config, ctx)),
};
