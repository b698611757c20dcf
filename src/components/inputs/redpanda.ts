// The `redpanda` input: kafka_franz's fields, except that records are processed in order per
// partition unless `unordered_processing` is enabled. Mapped onto the kafka_franz consumer: in
// order means one message of a partition in flight at a time (a checkpoint limit of 1).
import { type ConfigOf, defineComponent, field } from '../../config/spec.js';
import type { Input } from '../../engine/component.js';
import { batchingField } from '../fields/batching.js';
import { refuseProblems } from '../fields/config_problems.js';
import { byteSizeProblems, kafkaConnectionFields, saslProblems } from '../kafka/fields.js';
import { type KafkaFranzInputConfig, kafkaFranzInputFields } from '../kafka/franz_input_fields.js';
import { lintKafkaFranzInput } from '../kafka/franz_topics.js';
import { withSectionConnection } from '../kafka/redpanda_section.js';
import { fieldsNamed, withOptionalSeedBrokers } from '../kafka/spec_fields.js';
import { tracingMapField } from '../nats/connection.js';
import { buildConsumerInput, FETCH_SIZES } from './kafka_franz.js';

const a = { advanced: true };

const franzFields = kafkaFranzInputFields();

const fields = [
  ...withOptionalSeedBrokers(kafkaConnectionFields()),
  ...fieldsNamed(franzFields, [
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
  ]),
  field.string('partition_buffer_bytes', 'Bytes buffered per partition (checked, not used by nekton).', {
    default: '1MB',
    ...a,
  }),
  ...fieldsNamed(franzFields, ['topic_lag_refresh_period']),
  field.string(
    'max_yield_batch_bytes',
    'The largest batch handed out at once (checked, not used by nekton).',
    {
      default: '32KB',
      ...a,
    },
  ),
  field.object(
    'unordered_processing',
    'Process the messages of a partition in parallel instead of in order.',
    [
      field.bool('enabled', 'Process out of order.', { default: false, ...a }),
      field.int('checkpoint_limit', 'The most messages per partition in flight.', { default: 1024, ...a }),
      batchingField({ advanced: true }),
    ],
    a,
  ),
  ...fieldsNamed(franzFields, ['auto_replay_nacks', 'timely_nacks_maximum_wait']),
  tracingMapField('extract_tracing_map'),
];

/** The redpanda input's fields; redpanda_common picks its own from them. */
export const redpandaInputFields = fields;

/** The parsed config of a `redpanda` input (durations in ms). */
export type RedpandaInputConfig = ConfigOf<typeof fields>;

/** What lint (and, for a component built through the API, build) refuses; reads fields the same written and parsed. */
export function lintRedpandaInput(
  config: Pick<
    RedpandaInputConfig,
    'seed_brokers' | 'partition_buffer_bytes' | 'max_yield_batch_bytes' | (typeof FETCH_SIZES)[number]
  > &
    Parameters<typeof lintKafkaFranzInput>[0],
): string[] {
  // Without seed_brokers the top-level redpanda section connects it: the whole-config lint checks
  // that there is one (src/config/redpanda_section_lint.ts).
  const problems = byteSizeProblems(config, [
    'partition_buffer_bytes',
    'max_yield_batch_bytes',
    ...FETCH_SIZES,
  ]);
  return [...problems, ...lintKafkaFranzInput(config)];
}

function consumerConfigUnchecked(config: RedpandaInputConfig): KafkaFranzInputConfig {
  const {
    partition_buffer_bytes,
    max_yield_batch_bytes,
    unordered_processing,
    extract_tracing_map,
    ...rest
  } = config;
  const unordered = unordered_processing.enabled;
  return {
    ...rest,
    seed_brokers: config.seed_brokers ?? [],
    checkpoint_limit: unordered ? unordered_processing.checkpoint_limit : 1,
    multi_header: false,
    batching: unordered
      ? unordered_processing.batching
      : { count: 0, byte_size: 0, period: '', check: '', processors: [] },
  };
}

/** The parsed kafka_franz consumer config of a `redpanda` input; refuses what lint refuses (the API path skips lint). */
export function redpandaConsumerConfig(config: RedpandaInputConfig): KafkaFranzInputConfig {
  refuseProblems(lintRedpandaInput(config), 'redpanda: ');
  return consumerConfigUnchecked(config);
}

export const spec = defineComponent({
  name: 'redpanda',
  kind: 'input',
  status: 'stable',
  categories: ['Services'],
  summary:
    'Consumes Kafka (Redpanda) topics in a consumer group, in order per partition unless told otherwise.',
  description:
    'The kafka_franz consumer with the redpanda field set. By default the messages of a partition are processed in order: one message per partition is in flight at a time, and the next is handed out once it was acknowledged (the reference hands out a batch of up to `max_yield_batch_bytes` at a time: nekton hands out one message, so order and delivery are the same but batches are smaller). With `unordered_processing.enabled` up to `unordered_processing.checkpoint_limit` messages per partition are in flight, batched by `unordered_processing.batching`. Offsets are committed every `commit_period`, only up to the last message that, with every earlier one, was delivered; a nacked message is delivered again before anything new. Metadata as kafka_franz. Without `seed_brokers` it connects as the top-level `redpanda` section says (its seed brokers, TLS, SASL and timeouts). Accepted without effect: `partition_buffer_bytes`, `max_yield_batch_bytes` (both checked), and what kafka_franz ignores (`rack_id`, `tcp` keep-alive, `conn_idle_timeout`, `topic_lag_refresh_period`, `timely_nacks_maximum_wait`).',
  fields,
  examples: [
    {
      title: 'Consume a topic in order',
      config: `input:
  redpanda:
    seed_brokers: [ localhost:9092 ]
    topics: [ orders ]
    consumer_group: nekton-orders
output:
  stdout: {}
`,
    },
  ],
  lint: (config) => [...lintRedpandaInput(config), ...saslProblems(config.sasl)],
  build: (config, ctx): Promise<Input> =>
    buildConsumerInput(redpandaConsumerConfig(withSectionConnection(config, ctx, 'input')), ctx, 'redpanda'),
});
