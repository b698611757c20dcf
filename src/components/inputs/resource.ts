// `resource` input: reads from a named input resource. The name is resolved at each read, so an
// input resource replaced over the streams API is picked up without restarting the stream.
import { defineRootComponent, field } from '../../config/spec.js';
import type { Input } from '../../engine/component.js';
import { ConfigError } from '../../engine/errors.js';

export const spec = defineRootComponent({
  name: 'resource',
  kind: 'input',
  status: 'stable',
  categories: ['Utility'],
  summary: 'Reads from an input resource, by its label.',
  description:
    'Lets several streams share one input declared under `input_resources` (or added with `POST /resources/input/<name>`). Replacing the resource takes effect at once for every stream reading it.',
  root: field.string('', 'The label of the input resource.', { default: '' }),
  examples: [
    {
      title: 'Read from a shared input',
      config: `input:
  resource: ticker
input_resources:
  - label: ticker
    generate:
      count: 3
      interval: ''
      mapping: 'root = {"n": counter()}'
output:
  stdout: {}
`,
    },
  ],
  build: (name, ctx): Input => {
    if (!ctx.resources.has('input', name)) throw new ConfigError(`input resource '${name}' was not found`);
    return ctx.resources.input(name);
  },
});
