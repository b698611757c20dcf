// The fields of the `kafka_franz` input (the kafka and redpanda inputs pick from them or map
// onto their config), and that config's type.
import { field } from '../../config/spec.js';
import { type BatchingConfig, batchingField } from '../fields/batching.js';
import { type KafkaConnectionConfig, kafkaConnectionFields } from './fields.js';

export interface KafkaFranzInputConfig extends KafkaConnectionConfig {
  topics?: string[];
  regexp_topics: boolean;
  regexp_topics_include?: string[];
  regexp_topics_exclude?: string[];
  rack_id: string;
  instance_id: string;
  rebalance_timeout: string;
  session_timeout: string;
  heartbeat_interval: string;
  start_from_oldest: boolean;
  start_offset: 'committed' | 'earliest' | 'latest';
  fetch_max_bytes: string;
  fetch_max_wait: string;
  fetch_min_bytes: string;
  fetch_max_partition_bytes: string;
  transaction_isolation_level: 'read_committed' | 'read_uncommitted';
  consumer_group?: string;
  checkpoint_limit: number;
  commit_period: string;
  multi_header: boolean;
  batching: BatchingConfig;
  topic_lag_refresh_period: string;
  auto_replay_nacks: boolean;
  timely_nacks_maximum_wait?: string;
}

const a = { advanced: true };
/** Checked by lint; kept as text because the kafka and redpanda inputs map their configs onto this one as written. */
const d = { check: 'duration' } as const;

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
    field.string('rebalance_timeout', 'How long a rebalance may take.', { default: '45s', ...d, ...a }),
    field.string('session_timeout', 'How long the group waits for a silent member.', {
      default: '1m',
      ...d,
      ...a,
    }),
    field.string('heartbeat_interval', 'How often the member heartbeats.', { default: '3s', ...d, ...a }),
    field.bool('start_from_oldest', 'Deprecated: false starts new partitions at the latest offset.', {
      default: true,
      deprecated: true,
      ...a,
    }),
    field.string('start_offset', 'Where a partition without a committed offset starts.', {
      default: 'earliest',
      options: ['committed', 'earliest', 'latest'],
      ...a,
    }),
    field.string('fetch_max_bytes', 'The most bytes one fetch returns.', { default: '50MiB', ...a }),
    field.string('fetch_max_wait', 'How long a fetch waits for `fetch_min_bytes`.', {
      default: '5s',
      ...d,
      ...a,
    }),
    field.string('fetch_min_bytes', 'The least bytes a fetch waits for.', { default: '1B', ...a }),
    field.string('fetch_max_partition_bytes', 'The most bytes one fetch returns per partition.', {
      default: '1MiB',
      ...a,
    }),
    field.string('transaction_isolation_level', 'Whether to read records of aborted transactions.', {
      default: 'read_uncommitted',
      options: ['read_committed', 'read_uncommitted'],
    }),
    field.string('consumer_group', 'The consumer group to join (required); offsets are committed for it.', {
      optional: true,
    }),
    field.int('checkpoint_limit', 'The most messages per partition delivered but not yet acknowledged.', {
      default: 1024,
      ...a,
    }),
    field.string('commit_period', 'How often delivered offsets are committed.', {
      default: '5s',
      ...d,
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
