// The older `kafka` input (Sarama in the reference): its fields mapped onto the kafka_franz
// consumer, so both share one delivery and commit logic. What that consumer cannot do (explicit
// topic partitions, a token cache) is refused at lint, never done differently.
import { type ComponentSpec, field } from '../../config/spec.js';
import type { Input } from '../../engine/component.js';
import { ConfigError } from '../../engine/errors.js';
import { type BatchingConfig, batchingField } from '../fields/batching.js';
import { type TlsConfig, tlsField } from '../fields/tls.js';
import { seedBrokerProblems } from '../kafka/fields.js';
import type { KafkaFranzInputConfig } from '../kafka/franz_input_fields.js';
import {
  addressesField,
  franzConnection,
  type SaramaSaslConfig,
  saramaProblems,
  saramaSaslField,
  targetVersionField,
} from '../kafka/sarama_fields.js';
import { parseTopicPartitions } from '../kafka/topic_partitions.js';
import { tracingMapField } from '../nats/connection.js';
import { buildConsumerInput } from './kafka_franz.js';

export interface KafkaInputConfig {
  addresses: string[];
  topics: string[];
  target_version?: string;
  tls: TlsConfig;
  sasl?: SaramaSaslConfig;
  consumer_group: string;
  client_id: string;
  instance_id?: string;
  rack_id: string;
  start_from_oldest: boolean;
  checkpoint_limit: number;
  auto_replay_nacks: boolean;
  timely_nacks_maximum_wait?: string;
  commit_period: string;
  max_processing_period: string;
  extract_tracing_map?: string;
  group: { session_timeout: string; heartbeat_interval: string; rebalance_timeout: string };
  fetch_buffer_cap: number;
  multi_header: boolean;
  batching: BatchingConfig;
}

/** The reference's checks, in its words where it has them, and what nekton cannot do. */
export function lintKafkaInput(config: KafkaInputConfig): string[] {
  const problems = saramaProblems(config.sasl, config.target_version);
  let parsed: ReturnType<typeof parseTopicPartitions>;
  try {
    parsed = parseTopicPartitions(config.topics ?? []);
  } catch (err) {
    return [...problems, (err as Error).message];
  }
  const { balanced, explicit } = parsed;
  if (balanced.length === 0 && explicit.size === 0) {
    problems.push('must specify at least one topic in the topics field');
  } else if (balanced.length > 0 && explicit.size > 0) {
    problems.push(
      'it is not currently possible to include balanced and explicit partition topics in the same kafka input',
    );
  } else if (explicit.size > 0) {
    const named = [...explicit].map(([t, ps]) => `${t}: ${ps.join(',')}`).join('; ');
    problems.push(
      `explicit topic partitions (${named}) are not supported by nekton: list the topics and set a consumer_group`,
    );
  } else if (config.consumer_group === '') {
    problems.push('a consumer group must be specified when consuming balanced topics');
  }
  return problems;
}

/**
 * The kafka_franz consumer config of a `kafka` input. Sarama's defaults stand in for the fields the
 * `kafka` input does not have (fetch sizes and wait, metadata age).
 */
export function consumerConfig(config: KafkaInputConfig): KafkaFranzInputConfig {
  const problem = lintKafkaInput(config)[0];
  if (problem) throw new ConfigError(`kafka: ${problem}`);
  return {
    ...franzConnection(config),
    topics: parseTopicPartitions(config.topics).balanced,
    regexp_topics: false,
    rack_id: config.rack_id,
    instance_id: config.instance_id ?? '',
    rebalance_timeout: config.group.rebalance_timeout,
    session_timeout: config.group.session_timeout,
    heartbeat_interval: config.group.heartbeat_interval,
    start_from_oldest: config.start_from_oldest,
    start_offset: config.start_from_oldest ? 'earliest' : 'latest',
    fetch_max_bytes: '100MB',
    fetch_max_wait: '500ms',
    fetch_min_bytes: '1B',
    fetch_max_partition_bytes: '1MiB',
    transaction_isolation_level: 'read_uncommitted',
    consumer_group: config.consumer_group,
    checkpoint_limit: config.checkpoint_limit,
    commit_period: config.commit_period,
    multi_header: config.multi_header,
    batching: config.batching,
    topic_lag_refresh_period: '5s',
    auto_replay_nacks: config.auto_replay_nacks,
    ...(config.timely_nacks_maximum_wait
      ? { timely_nacks_maximum_wait: config.timely_nacks_maximum_wait }
      : {}),
  };
}

const a = { advanced: true };

export const spec: ComponentSpec<KafkaInputConfig, Input> = {
  name: 'kafka',
  kind: 'input',
  status: 'deprecated',
  categories: ['Services'],
  summary: 'Consumes Kafka topics as a member of a consumer group (the older field set of kafka_franz).',
  description:
    "The reference's older Kafka input, mapped onto the same consumer as `kafka_franz`: each partition's offset is committed (every `commit_period`) only up to the last message that, with every earlier one, was delivered; at most `checkpoint_limit` messages per partition are in flight; a nacked message is delivered again before anything new (or, with `auto_replay_nacks: false`, dropped with a warning). What was not committed when nekton stops or loses the connection is consumed again. Metadata: `kafka_key`, `kafka_topic`, `kafka_partition`, `kafka_offset`, `kafka_timestamp_unix`, `kafka_timestamp_ms`, `kafka_tombstone_message` and every record header (`kafka_lag` is not set). An unreachable broker fails the connection with its address and the reason: `/ready` answers 503 and nekton retries with backoff.\n\nNot supported (refused by lint): explicit topic partitions (`foo:0`, `foo:0-3`: a consumer_group is required), `sasl.token_cache`/`token_key`, `instance_id`. Accepted without effect: `target_version` (checked; the client negotiates the protocol version with each broker), `rack_id`, `max_processing_period`, `fetch_buffer_cap`, `extract_tracing_map`, `timely_nacks_maximum_wait`. The client refuses a `group.rebalance_timeout` below `group.session_timeout`: nekton uses the larger of the two.",
  fields: [
    addressesField(),
    field.array(
      field.string(
        'topics',
        'Topics to consume; `foo:0` and `foo:0-3` name explicit partitions (not supported).',
        {
          examples: [
            ['foo', 'bar'],
            ['things.*'],
            ['foo,bar'],
            ['foo:0', 'bar:1', 'bar:3'],
            ['foo:0,bar:1,bar:3'],
            ['foo:0-5'],
          ],
        },
      ),
    ),
    targetVersionField(),
    tlsField(),
    saramaSaslField(),
    field.string('consumer_group', 'The consumer group to join; required.', { default: '' }),
    field.string('client_id', 'The client id sent to the brokers.', { default: 'benthos', ...a }),
    field.string(
      'instance_id',
      'A static group member id. Refused by nekton: its Node 20 Kafka client has no static membership.',
      { optional: true, ...a },
    ),
    field.string('rack_id', 'The rack of this consumer (not used by nekton).', { default: '', ...a }),
    field.bool('start_from_oldest', 'Start a partition without a committed offset at the oldest offset.', {
      default: true,
      ...a,
    }),
    field.int('checkpoint_limit', 'The most messages per partition delivered but not yet acknowledged.', {
      default: 1024,
    }),
    field.bool('auto_replay_nacks', 'Re-deliver nacked messages inside nekton instead of dropping them.', {
      default: true,
    }),
    field.string('timely_nacks_maximum_wait', 'Not used by nekton.', { optional: true, ...a }),
    field.string('commit_period', 'How often delivered offsets are committed.', {
      default: '1s',
      check: 'duration',
      ...a,
    }),
    field.string('max_processing_period', 'Not used by nekton (a Sarama tuning).', {
      default: '100ms',
      ...a,
    }),
    tracingMapField('extract_tracing_map'),
    field.object(
      'group',
      'Consumer group tuning.',
      [
        field.string('session_timeout', 'How long the group waits for a silent member.', {
          default: '10s',
          check: 'duration',
          ...a,
        }),
        field.string('heartbeat_interval', 'How often the member heartbeats.', {
          default: '3s',
          check: 'duration',
          ...a,
        }),
        field.string('rebalance_timeout', 'How long a rebalance may take.', {
          default: '60s',
          check: 'duration',
          ...a,
        }),
      ],
      a,
    ),
    field.int('fetch_buffer_cap', 'Not used by nekton (a Sarama buffer size).', { default: 256, ...a }),
    field.bool('multi_header', 'Keep every value of repeated headers, as a list.', { default: false, ...a }),
    batchingField({ advanced: true }),
  ],
  examples: [
    {
      title: 'Consume a topic in a consumer group',
      config: `input:
  kafka:
    addresses: [ localhost:9092 ]
    topics: [ orders ]
    consumer_group: nekton-orders
output:
  stdout: {}
`,
    },
  ],
  lint: (config) => [...lintKafkaInput(config), ...seedBrokerProblems(config.addresses, 'addresses')],
  build: (config, ctx) => buildConsumerInput(consumerConfig(config), ctx, 'kafka'),
};
