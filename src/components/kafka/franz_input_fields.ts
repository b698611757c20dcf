// The fields of the `kafka_franz` input (the kafka and redpanda inputs pick from them or map
// onto their parsed config), and that config's type.
import { type ConfigOf, field } from '../../config/spec.js';
import { batchingField } from '../fields/batching.js';
import { type KafkaConnectionConfig, kafkaConnectionFields } from './fields.js';

const a = { advanced: true };

export function kafkaFranzInputFields() {
  return [
    ...kafkaConnectionFields(),
    field.array(
      field.string('topics', 'Topics to consume (comma-separated entries allowed).', {
        optional: true,
        examples: [['foo', 'bar']],
      }),
    ),
    field.bool('regexp_topics', 'Deprecated: treat `topics` as regular expressions.', {
      default: false,
      deprecated: true,
    }),
    field.array(
      field.string(
        'regexp_topics_include',
        'Consume every topic matching one of these regular expressions.',
        {
          optional: true,
          regexp: true,
          examples: [['^logs-.*']],
        },
      ),
    ),
    field.array(
      field.string('regexp_topics_exclude', 'Skip topics matching one of these regular expressions.', {
        optional: true,
        regexp: true,
      }),
    ),
    field.string('rack_id', 'The rack of this consumer (not used by nekton).', { default: '', ...a }),
    field.string(
      'instance_id',
      'A static group member id. Refused by nekton: its Node 20 Kafka client has no static membership.',
      { default: '', ...a },
    ),
    field.duration('rebalance_timeout', 'How long a rebalance may take.', { default: '45s', ...a }),
    field.duration('session_timeout', 'How long the group waits for a silent member.', {
      default: '1m',
      ...a,
    }),
    field.duration('heartbeat_interval', 'How often the member heartbeats.', { default: '3s', ...a }),
    field.bool('start_from_oldest', 'Deprecated: false starts new partitions at the latest offset.', {
      default: true,
      deprecated: true,
      ...a,
    }),
    field.enum(
      'start_offset',
      'Where a partition without a committed offset starts.',
      ['committed', 'earliest', 'latest'],
      { default: 'earliest', ...a },
    ),
    field.string('fetch_max_bytes', 'The most bytes one fetch returns.', { default: '50MiB', ...a }),
    field.duration('fetch_max_wait', 'How long a fetch waits for `fetch_min_bytes`.', {
      default: '5s',
      ...a,
    }),
    field.string('fetch_min_bytes', 'The least bytes a fetch waits for.', { default: '1B', ...a }),
    field.string('fetch_max_partition_bytes', 'The most bytes one fetch returns per partition.', {
      default: '1MiB',
      ...a,
    }),
    field.enum(
      'transaction_isolation_level',
      'Whether to read records of aborted transactions.',
      ['read_committed', 'read_uncommitted'],
      { default: 'read_uncommitted' },
    ),
    field.string('consumer_group', 'The consumer group to join (required); offsets are committed for it.', {
      optional: true,
    }),
    field.int('checkpoint_limit', 'The most messages per partition delivered but not yet acknowledged.', {
      default: 1024,
      ...a,
    }),
    field.duration('commit_period', 'How often delivered offsets are committed.', {
      default: '5s',
      ...a,
    }),
    field.bool('multi_header', 'Keep every value of repeated headers, as a list.', { default: false, ...a }),
    batchingField({ advanced: true }),
    field.string('topic_lag_refresh_period', 'How often topic lag is refreshed (not used by nekton).', {
      default: '5s',
      ...a,
    }),
    field.bool('auto_replay_nacks', 'Re-deliver nacked messages inside nekton instead of failing them.', {
      default: true,
    }),
    field.string('timely_nacks_maximum_wait', 'Not used by nekton.', { optional: true, ...a }),
  ];
}

/**
 * The parsed config of the consumer (durations in ms): kafka_franz's own, or the one the kafka
 * and redpanda inputs map theirs onto (`sasl` narrowed as in KafkaConnectionConfig).
 */
export type KafkaFranzInputConfig = Omit<ConfigOf<ReturnType<typeof kafkaFranzInputFields>>, 'sasl'> &
  Pick<KafkaConnectionConfig, 'sasl'>;
