// `bloblang`: the older name of `mapping`, kept so existing configs run unchanged.
import { type ComponentSpec, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { mappingProcessor } from './mapping.js';

export type BloblangConfig = string;

export const spec: ComponentSpec<BloblangConfig, Processor> = {
  name: 'bloblang',
  kind: 'processor',
  status: 'stable',
  categories: ['Mapping', 'Parsing'],
  summary: 'Builds a new document for each message with a Bloblang mapping; the same as `mapping`.',
  description:
    'This is the name the `mapping` processor had before; both behave the same way. New configs should use `mapping` (a new document) or `mutation` (edit in place).',
  fields: [],
  root: field.string('', 'The Bloblang mapping to run on each message.', {
    bloblang: true,
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
  build: (config, ctx) => mappingProcessor(ctx.mapping(config, 'bloblang'), 'apply', ctx),
};
