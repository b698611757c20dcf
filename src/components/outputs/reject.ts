// The `reject` output: fails every write with a (possibly interpolated) error message.

import type { Interpolation } from '../../bloblang/index.js';
import { defineRootComponent, type FieldParseContext, type FieldSpec, field } from '../../config/spec.js';
import type { Output, OutputWriter } from '../../engine/component.js';
import { RejectedError } from '../../engine/errors.js';
import type { Batch } from '../../message/message.js';

export class RejectWriter implements OutputWriter {
  constructor(private readonly message: Interpolation) {}

  async connect(): Promise<void> {}

  async write(batch: Batch): Promise<void> {
    throw new RejectedError(this.message.render(batch, 0));
  }

  async close(): Promise<void> {}
}

// The reference does not flag this root as interpolated (so lint leaves it alone), yet renders it
// as one: the field compiles it for the factory without the flag.
const messageField = {
  ...field.string('', 'The error message.', {
    default: '',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation, not a JS template
    examples: ['${! error() }', 'message type not supported'],
  }),
  parse: (text: string, ctx: FieldParseContext) => ctx.interpolation(text, 'reject'),
} as FieldSpec<'', string, Interpolation>;

export const spec = defineRootComponent({
  name: 'reject',
  kind: 'output',
  status: 'stable',
  categories: ['Utility'],
  summary: 'Rejects every message with an error, so the input nacks it.',
  description:
    'Most useful inside `switch` or `fallback` outputs to refuse some messages on purpose. The message supports Bloblang interpolation against the first message of the batch.',
  root: messageField,
  examples: [
    {
      title: 'Refuse messages that failed processing',
      config: `input:
  stdin: {}
pipeline:
  processors:
    - mapping: 'root = this'
output:
  switch:
    cases:
      - check: errored()
        output:
          reject: 'processing failed: \${! error() }'
      - output:
          stdout: {}
`,
    },
  ],
  build: (message, ctx): Output => ctx.wrapWriter(new RejectWriter(message)),
});
