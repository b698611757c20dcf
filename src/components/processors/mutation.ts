// `mutation`: edits each message in place with a Bloblang mapping.
import { defineRootComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { mappingProcessor, requiredMapping } from './mapping.js';

export const spec = defineRootComponent({
  name: 'mutation',
  kind: 'processor',
  status: 'stable',
  categories: ['Mapping', 'Parsing'],
  summary: 'Edits each message in place with a Bloblang mapping.',
  description: `Unlike \`mapping\`, the document starts as the input message: assignments change only the parts they name and everything else is kept. \`root = deleted()\` drops the message.

When the mutation fails the message carries on unchanged with its error flag set, so it can be handled by \`catch\`, \`try\` or \`switch\` on \`errored()\`.`,
  root: field.mapping('', 'The Bloblang mapping to apply to each message.', {
    examples: ['root.id = uuid_v4()', 'root.password = deleted()'],
  }),
  examples: [
    {
      title: 'Add a field and remove another',
      config: `input:
  generate:
    count: 1
    interval: ''
    mapping: 'root = {"name": "ada", "password": "secret"}'
pipeline:
  processors:
    - mutation: |
        root.greeting = "hello " + this.name
        root.password = deleted()
output:
  stdout: {}
`,
    },
  ],
  build: (mapping, ctx): Processor =>
    mappingProcessor(requiredMapping(mapping, ctx, 'mutation'), 'mutate', ctx),
});
