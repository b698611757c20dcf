// `bounds_check`: drops whole batches whose message count or any message's size is out of bounds.
import { type ConfigOf, defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import type { Batch } from '../../message/message.js';

const fields = [
  field.int('max_part_size', 'The largest message allowed, in bytes.', { default: 1073741824 }),
  field.int('min_part_size', 'The smallest message allowed, in bytes.', { default: 1 }),
  field.int('max_parts', 'The most messages a batch may hold.', { default: 100, advanced: true }),
  field.int('min_parts', 'The fewest messages a batch may hold.', { default: 1, advanced: true }),
] as const;

/** The reason a batch is out of bounds, or null when it fits. */
export function outOfBounds(batch: Batch, config: ConfigOf<typeof fields>): string | null {
  if (batch.length < config.min_parts)
    return `batch of ${batch.length} is below min_parts ${config.min_parts}`;
  if (batch.length > config.max_parts)
    return `batch of ${batch.length} exceeds max_parts ${config.max_parts}`;
  for (const msg of batch) {
    const size = msg.byteSize();
    if (size > config.max_part_size || size < config.min_part_size) {
      return `message of ${size} bytes is outside ${config.min_part_size}..${config.max_part_size}`;
    }
  }
  return null;
}

export const spec = defineComponent({
  name: 'bounds_check',
  kind: 'processor',
  status: 'stable',
  categories: ['Utility'],
  summary:
    'Drops batches that hold too few or too many messages, or any message that is too small or too large.',
  description:
    'A dropped batch is acknowledged, not retried: use this to shed payloads a downstream system would refuse. One message out of bounds drops its whole batch.',
  fields,
  examples: [
    {
      title: 'Drop empty and oversized messages',
      config: `input:
  stdin: {}
pipeline:
  processors:
    - bounds_check:
        min_part_size: 1
        max_part_size: 65536
output:
  stdout: {}
`,
    },
  ],
  build: (config, ctx): Processor => ({
    process: (batch) => {
      const reason = outOfBounds(batch, config);
      if (reason === null) return [batch];
      ctx.logger.debug(`bounds_check dropped a batch: ${reason}`);
      return [];
    },
    close: async () => {},
  }),
});
