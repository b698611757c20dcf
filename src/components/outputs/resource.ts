// `resource` output: writes to a named output resource. The name is resolved at each write, so an
// output resource replaced over the streams API is used at once, without restarting the stream.
import { defineRootComponent, field } from '../../config/spec.js';
import type { Output } from '../../engine/component.js';
import { ConfigError } from '../../engine/errors.js';

export const spec = defineRootComponent({
  name: 'resource',
  kind: 'output',
  status: 'stable',
  categories: ['Utility'],
  summary: 'Writes to an output resource, by its label.',
  description:
    'Lets several streams (or several places of one config, e.g. `switch` cases) share one output declared under `output_resources` (or added with `POST /resources/output/<name>`). Replacing the resource takes effect at once for every user.',
  root: field.string('', 'The label of the output resource.', { default: '' }),
  examples: [
    {
      title: 'Write to a shared output',
      config: `input:
  generate:
    count: 3
    interval: ''
    mapping: 'root = {"n": counter()}'
output:
  resource: printer
output_resources:
  - label: printer
    stdout: {}
`,
    },
  ],
  build: (name, ctx): Output => {
    if (!ctx.resources.has('output', name)) throw new ConfigError(`output resource '${name}' was not found`);
    return ctx.resources.output(name);
  },
});
