// `select_parts`: picks messages of a batch by index (negative counts from the end), in the
// order given; a batch left with none is dropped (acked: the drop is on purpose).
import { type ComponentSpec, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import type { Batch } from '../../message/message.js';

export interface SelectPartsConfig {
  parts: number[];
}

export class SelectPartsProcessor implements Processor {
  constructor(private readonly parts: readonly number[]) {}

  process(batch: Batch): Batch[] {
    const out: Batch = [];
    for (const part of this.parts) {
      const index = part < 0 ? batch.length + part : part;
      if (index >= 0 && index < batch.length) out.push(batch[index]!.copy());
    }
    return out.length > 0 ? [out] : [];
  }

  async close(): Promise<void> {}
}

export const spec: ComponentSpec<SelectPartsConfig, Processor> = {
  name: 'select_parts',
  kind: 'processor',
  status: 'stable',
  categories: ['Utility'],
  summary: 'Picks messages of a batch by their index; indexes past the end are ignored.',
  description:
    'The picked messages form the new batch in the order of `parts`: with `parts: [2, 0, 1]` and messages `[a, b, c, d]` the result is `[c, a, b]`. A negative index counts from the end (`-1` is the last message). When none of the indexes exist the batch is dropped. Only useful on batches (see `batching`).',
  fields: [
    field.array(
      field.int(
        'parts',
        'Indexes of the messages to keep, in the order wanted. A negative index counts back from the end, starting at -1.',
        { default: [] },
      ),
    ),
  ],
  examples: [
    {
      title: 'Keep the first and last message of each batch',
      config: `input:
  generate:
    count: 6
    batch_size: 3
    interval: ''
    mapping: 'root = {"n": counter()}'
pipeline:
  processors:
    - select_parts:
        parts: [0, -1]
output:
  stdout: {}
`,
    },
  ],
  build: (config) => new SelectPartsProcessor(config.parts),
};
