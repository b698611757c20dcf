// `group_by_value`: splits a batch into one batch per distinct value of an interpolated string.
import type { Interpolation } from '../../bloblang/index.js';
import { defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import type { Batch } from '../../message/message.js';

export class GroupByValueProcessor implements Processor {
  constructor(private readonly value: Interpolation) {}

  process(batch: Batch): Batch[] {
    if (batch.length === 0) return [];
    // Map keeps insertion order: groups come out in the order their first message arrived.
    const groups = new Map<string, Batch>();
    for (let i = 0; i < batch.length; i++) {
      const key = this.value.render(batch, i);
      const group = groups.get(key);
      if (group) group.push(batch[i]!);
      else groups.set(key, [batch[i]!]);
    }
    return [...groups.values()];
  }

  async close(): Promise<void> {}
}

export const spec = defineComponent({
  name: 'group_by_value',
  kind: 'processor',
  status: 'stable',
  categories: ['Composition'],
  summary: 'Splits a batch into smaller batches, one per distinct value of an interpolated string.',
  description:
    'Messages keep their order within each group, and groups come out in the order their first message appeared. Combined with output batching this groups messages by a key, for example to write one file per key.',
  fields: [
    field.interpolated('value', 'The interpolated string whose value groups the messages.', {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a Bloblang interpolation, not a JS template
      examples: ['${! meta("kafka_key") }', '${! json("foo.bar") }-${! meta("baz") }'],
    }),
  ],
  examples: [
    {
      title: 'One batch per customer',
      config: `input:
  generate:
    count: 6
    batch_size: 6
    interval: ''
    mapping: 'root = {"customer": if counter() % 2 == 0 { "a" } else { "b" }}'
pipeline:
  processors:
    - group_by_value:
        value: '\${! this.customer }'
output:
  stdout: {}
`,
    },
  ],
  build: (config): Processor => new GroupByValueProcessor(config.value),
});
