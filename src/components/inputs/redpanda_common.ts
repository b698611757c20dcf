// The `redpanda_common` input: the redpanda input's in-order consumer, connected with the
// top-level `redpanda` section (its seed brokers, TLS, SASL and timeouts).
import { type ConfigOf, defineComponent } from '../../config/spec.js';
import type { Input } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import { byteSizeProblems } from '../kafka/fields.js';
import type { KafkaFranzInputConfig } from '../kafka/franz_input_fields.js';
import { lintKafkaFranzInput } from '../kafka/franz_topics.js';
import { redpandaSection } from '../kafka/redpanda_section.js';
import { fieldsNamed } from '../kafka/spec_fields.js';
import { buildConsumerInput, FETCH_SIZES } from './kafka_franz.js';
import { redpandaConsumerConfig, redpandaInputFields } from './redpanda.js';

const fields = fieldsNamed(redpandaInputFields, [
  'topics',
  'regexp_topics',
  'regexp_topics_include',
  'regexp_topics_exclude',
  'rack_id',
  'instance_id',
  'rebalance_timeout',
  'session_timeout',
  'heartbeat_interval',
  'start_from_oldest',
  'start_offset',
  'fetch_max_bytes',
  'fetch_max_wait',
  'fetch_min_bytes',
  'fetch_max_partition_bytes',
  'transaction_isolation_level',
  'consumer_group',
  'commit_period',
  'partition_buffer_bytes',
  'topic_lag_refresh_period',
  'max_yield_batch_bytes',
  'auto_replay_nacks',
  'timely_nacks_maximum_wait',
]);

const NO_BATCHING = { count: 0, byte_size: 0, period: '', check: '', processors: [] };

export const spec = defineComponent({
  name: 'redpanda_common',
  kind: 'input',
  status: 'deprecated',
  categories: ['Services'],
  summary:
    'Consumes Redpanda (Kafka) topics in order per partition, over the connection of the top-level `redpanda` section.',
  description:
    'The redpanda input (in order: one message per partition in flight, the next handed out once it was acknowledged), connected with the top-level `redpanda` section: its `seed_brokers`, TLS, SASL and timeouts. Without that section (or without its `seed_brokers`) the config does not lint. Offsets are committed every `commit_period`, only up to the last message that, with every earlier one, was delivered; a nacked message is delivered again before anything new. Metadata as kafka_franz. In streams mode the section belongs in the observability config (`-o`); a stream using this input is refused when that config has none. Accepted without effect: `partition_buffer_bytes`, `max_yield_batch_bytes` (both checked), `rack_id`, `topic_lag_refresh_period`, `timely_nacks_maximum_wait`.',
  fields,
  examples: [
    {
      title: 'Consume over the shared connection',
      config: `redpanda:
  seed_brokers: [ localhost:9092 ]
input:
  redpanda_common:
    topics: [ orders ]
    consumer_group: nekton-orders
output:
  stdout: {}
`,
    },
  ],
  lint: (config) => [
    ...byteSizeProblems(config, ['partition_buffer_bytes', 'max_yield_batch_bytes', ...FETCH_SIZES]),
    ...lintKafkaFranzInput(config),
  ],
  build: (config, ctx): Promise<Input> =>
    buildConsumerInput(redpandaCommonConsumer(config, ctx), ctx, 'redpanda_common'),
});

/** The consumer of a redpanda_common input: the section's connection, in order per partition. */
export function redpandaCommonConsumer(
  config: ConfigOf<typeof fields>,
  ctx: BuildContext,
): KafkaFranzInputConfig {
  const section = redpandaSection(ctx, 'redpanda_common');
  return redpandaConsumerConfig({
    ...section,
    ...config,
    unordered_processing: { enabled: false, checkpoint_limit: 1, batching: NO_BATCHING },
    extract_tracing_map: undefined,
  });
}
