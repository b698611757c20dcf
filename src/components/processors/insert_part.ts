// `insert_part`: adds a message with interpolated content to a batch at an index (negative
// counts from the end; -1 appends). The new message copies the first message's metadata.
import type { Interpolation } from '../../bloblang/index.js';
import { type ComponentSpec, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import type { Batch } from '../../message/message.js';

export interface InsertPartConfig {
  index: number;
  content: string;
}

export class InsertPartProcessor implements Processor {
  constructor(
    private readonly index: number,
    private readonly content: Interpolation,
  ) {}

  process(batch: Batch): Batch[] {
    if (batch.length === 0) return [];
    // A failing query renders as `null`, as in every nekton interpolation.
    const content = this.content.render(batch, 0);
    const part = batch[0]!.copy();
    part.setBytes(content);
    let at = this.index;
    if (at < 0) at = Math.max(batch.length + at + 1, 0);
    else if (at > batch.length) at = batch.length;
    const out = batch.slice();
    out.splice(at, 0, part);
    return [out];
  }

  async close(): Promise<void> {}
}

export const spec: ComponentSpec<InsertPartConfig, Processor> = {
  name: 'insert_part',
  kind: 'processor',
  status: 'stable',
  categories: ['Composition'],
  summary: 'Adds a new message with the given content to a batch, at an index.',
  description:
    'The index can be negative, counting from the end: `-1` (the default) appends the message, `-2` puts it before the last one. An index past either end puts it at that end. The new message starts as a copy of the first message of the batch (its metadata and any error flag included, as in the reference) with `content` as its contents; interpolations in `content` read the first message. Only useful on batches (see `batching`).',
  fields: [
    field.int('index', 'Where to insert the message; negative counts from the end, -1 appends.', {
      default: -1,
    }),
    field.string('content', 'The content of the new message.', { default: '', interpolated: true }),
  ],
  examples: [
    {
      title: 'End every batch with a marker',
      config: `input:
  generate:
    count: 4
    batch_size: 2
    interval: ''
    mapping: 'root = {"n": counter()}'
pipeline:
  processors:
    - insert_part:
        content: 'end of batch'
output:
  stdout: {}
`,
    },
  ],
  build: (config, ctx) => new InsertPartProcessor(config.index, ctx.interpolation(config.content, 'content')),
};
