// `bloblang`: the older name of `mapping`, kept so existing configs run unchanged.
import { defineRootComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { mappingProcessor, requiredMapping } from './mapping.js';

export const spec = defineRootComponent({
  name: 'bloblang',
  kind: 'processor',
  status: 'stable',
  categories: ['Mapping', 'Parsing'],
  summary: 'Builds a new document for each message with a Bloblang mapping; the same as `mapping`.',
  description:
    'This is the name the `mapping` processor had before; both behave the same way. New configs should use `mapping` (a new document) or `mutation` (edit in place).',
  root: field.mapping('', 'The Bloblang mapping to run on each message.', {
    default: '',
    examples: ['root = this.body.uppercase()'],
  }),
  examples: [
    {
      title: 'Uppercase a field',
      config: `input:
  generate:
    count: 1
    interval: ''
    mapping: 'root = {"body": "hello"}'
pipeline:
  processors:
    - bloblang: 'root.body = this.body.uppercase()'
output:
  stdout: {}
`,
    },
  ],
  build: (mapping, ctx): Processor =>
    mappingProcessor(requiredMapping(mapping, ctx, 'bloblang'), 'apply', ctx),
});
