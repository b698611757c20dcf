// The `batching` policy object that outputs (and some inputs) share, exactly as the reference declares it.
import { type FieldSpec, field } from '../../config/spec.js';
import type { BatchPolicyConfig } from '../../engine/batching.js';

export type BatchingConfig = BatchPolicyConfig;

/** `advanced: true` for the few components (kafka inputs) whose batching is an advanced field. */
export function batchingField(options: { advanced?: boolean } = {}): FieldSpec<'batching', BatchingConfig> {
  const advanced = options.advanced ?? false;
  const flags = advanced ? { advanced } : {};
  return field.object(
    'batching',
    'Groups messages into batches before they are written. A batch is flushed when any of `count`, `byte_size` or `period` is reached, or when `check` returns true.',
    [
      field.int('count', 'Flush a batch once it holds this many messages; 0 disables the count trigger.', {
        default: 0,
        ...flags,
        examples: [10],
      }),
      field.int('byte_size', 'Flush a batch once its total payload reaches this many bytes; 0 disables it.', {
        default: 0,
        ...flags,
      }),
      field.string('period', 'Flush a non-empty batch after this long, regardless of its size.', {
        default: '',
        check: 'duration',
        ...flags,
        examples: ['1s', '1m', '500ms'],
      }),
      field.string('check', 'A Bloblang query that flushes the batch when it returns true for a message.', {
        default: '',
        bloblang: true,
        ...flags,
        examples: ['this.type == "end_of_transaction"'],
      }),
      field.array(
        field.component('processor', 'processors', 'Processors applied to each batch as it is flushed.', {
          optional: true,
          advanced: true,
        }),
      ),
    ],
    flags,
  ) as unknown as FieldSpec<'batching', BatchingConfig>;
}

/** True when the policy would ever flush by something other than the end of input. */
export function batchingEnabled(config: BatchingConfig): boolean {
  return config.count > 1 || config.byte_size > 0 || config.period !== '' || config.check !== '';
}
