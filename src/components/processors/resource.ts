// `resource` processor: runs a named processor resource. The name is resolved for every batch, so
// a processor resource replaced over the streams API applies at once, without a stream restart.
import { defineRootComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import type { Resources } from '../../engine/context.js';
import { ConfigError } from '../../engine/errors.js';
import type { Batch } from '../../message/message.js';

export class ResourceProcessor implements Processor {
  constructor(
    private readonly resources: Resources,
    private readonly name: string,
  ) {}

  process(batch: Batch): Promise<Batch[]> {
    return this.resources.useProcessor(this.name, async (p) => p.process(batch));
  }

  /** The resource belongs to the process, not to this user. */
  async close(): Promise<void> {}
}

export const spec = defineRootComponent({
  name: 'resource',
  kind: 'processor',
  status: 'stable',
  categories: ['Utility'],
  summary: 'Runs a processor resource, by its label.',
  description:
    'Lets several pipelines share one processor declared under `processor_resources` (or added with `POST /resources/processor/<name>`). Replacing the resource takes effect at once for every user.',
  root: field.string('', 'The label of the processor resource.', { default: '' }),
  examples: [
    {
      title: 'Share a processor',
      config: `input:
  generate:
    count: 3
    interval: ''
    mapping: 'root = {"n": counter()}'
pipeline:
  processors:
    - resource: tag
processor_resources:
  - label: tag
    mapping: 'root.tagged = true'
output:
  stdout: {}
`,
    },
  ],
  build: (name, ctx) => {
    if (!ctx.resources.has('processor', name))
      throw new ConfigError(`processor resource '${name}' was not found`);
    return new ResourceProcessor(ctx.resources, name);
  },
});
