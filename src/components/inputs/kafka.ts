// The older `kafka` input (Sarama in the reference): its fields mapped onto the kafka_franz
// consumer, so both share one delivery and commit logic. What that consumer cannot do (explicit
// topic partitions, a token cache) is refused at lint, never done differently.
import { type ConfigOf, defineComponent, field } from '../../config/spec.js';
import type { Input } from '../../engine/component.js';
import { batchingField } from '../fields/batching.js';
import { refuseProblems } from '../fields/config_problems.js';
import { tlsField } from '../fields/tls.js';
import type { KafkaFranzInputConfig } from '../kafka/franz_input_fields.js';
import {
  addressesField,
  clientIdField,
  franzConnection,
  saramaProblems,
  saramaSaslField,
  targetVersionField,
} from '../kafka/sarama_fields.js';
import { parseTopicPartitions } from '../kafka/topic_partitions.js';
import { tracingMapField } from '../nats/connection.js';
import { buildConsumerInput } from './kafka_franz.js';

const a = { advanced: true };

const fields = [
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
  clientIdField(),
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
  field.duration('commit_period', 'How often delivered offsets are committed.', { default: '1s', ...a }),
  field.string('max_processing_period', 'Not used by nekton (a Sarama tuning).', {
    default: '100ms',
    ...a,
  }),
  tracingMapField('extract_tracing_map'),
  field.object(
    'group',
    'Consumer group tuning.',
    [
      field.duration('session_timeout', 'How long the group waits for a silent member.', {
        default: '10s',
        ...a,
      }),
      field.duration('heartbeat_interval', 'How often the member heartbeats.', { default: '3s', ...a }),
      field.duration('rebalance_timeout', 'How long a rebalance may take.', { default: '60s', ...a }),
    ],
    a,
  ),
  field.int('fetch_buffer_cap', 'Not used by nekton (a Sarama buffer size).', { default: 256, ...a }),
  field.bool('multi_header', 'Keep every value of repeated headers, as a list.', { default: false, ...a }),
  batchingField({ advanced: true }),
];

/** The parsed config of a `kafka` input (durations in ms). */
export type KafkaInputConfig = ConfigOf<typeof fields>;

/** The reference's checks, in its words where it has them, and what nekton cannot do. */
export function lintKafkaInput(
  config: Pick<KafkaInputConfig, 'target_version' | 'topics' | 'consumer_group' | 'instance_id'> & {
    sasl?: Parameters<typeof saramaProblems>[0];
  },
): string[] {
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
  if (config.instance_id)
    problems.push(
      'instance_id (static group membership) is not supported by nekton on its Node 20 Kafka client',
    );
  return problems;
}

/**
 * The parsed kafka_franz consumer config of a `kafka` input. Sarama's defaults stand in for the
 * fields the `kafka` input does not have (fetch sizes and wait, metadata age). Refuses what lint
 * refuses, since a component built through the API skips lint.
 */
export function consumerConfig(config: KafkaInputConfig): KafkaFranzInputConfig {
  refuseProblems(lintKafkaInput(config), 'kafka: ');
  return {
    ...franzConnection(config),
    topics: parseTopicPartitions(config.topics).balanced,
    regexp_topics: false,
    regexp_topics_include: [],
    regexp_topics_exclude: [],
    rack_id: config.rack_id,
    instance_id: config.instance_id ?? '',
    rebalance_timeout: config.group.rebalance_timeout,
    session_timeout: config.group.session_timeout,
    heartbeat_interval: config.group.heartbeat_interval,
    start_from_oldest: config.start_from_oldest,
    start_offset: config.start_from_oldest ? 'earliest' : 'latest',
    fetch_max_bytes: '100MB',
    fetch_max_wait: 500,
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
    timely_nacks_maximum_wait: config.timely_nacks_maximum_wait || undefined,
  };
}

export const spec = defineComponent({
  name: 'kafka',
  kind: 'input',
  status: 'deprecated',
  categories: ['Services'],
  summary: 'Consumes Kafka topics as a member of a consumer group (the older field set of kafka_franz).',
  description:
    "The reference's older Kafka input, mapped onto the same consumer as `kafka_franz`: each partition's offset is committed (every `commit_period`) only up to the last message that, with every earlier one, was delivered; at most `checkpoint_limit` messages per partition are in flight; a nacked message is delivered again before anything new (or, with `auto_replay_nacks: false`, dropped with a warning). What was not committed when nekton stops or loses the connection is consumed again. Metadata: `kafka_key`, `kafka_topic`, `kafka_partition`, `kafka_offset`, `kafka_timestamp_unix`, `kafka_timestamp_ms`, `kafka_tombstone_message` and every record header (`kafka_lag` is not set). An unreachable broker fails the connection with its address and the reason: `/ready` answers 503 and nekton retries with backoff.\n\nNot supported (refused by lint): explicit topic partitions (`foo:0`, `foo:0-3`: a consumer_group is required), `sasl.token_cache`/`token_key`, `instance_id`. Accepted without effect: `target_version` (checked; the client negotiates the protocol version with each broker), `rack_id`, `max_processing_period`, `fetch_buffer_cap`, `timely_nacks_maximum_wait`. The client refuses a `group.rebalance_timeout` below `group.session_timeout`: nekton uses the larger of the two.",
  fields,
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
  lint: (config) => [...lintKafkaInput(config)],
  build: (config, ctx): Promise<Input> => buildConsumerInput(consumerConfig(config), ctx, 'kafka'),
});
