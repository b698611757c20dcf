// The `kafka_franz` input: consumes topics as a member of a consumer group and commits each
// partition's offset only once every message up to it was delivered (at-least-once).
import { randomUUID } from 'node:crypto';
import type { Consumer, Message as KafkaMessage, MessagesStream } from '@platformatic/kafka';
import type { Logger } from 'pino';
import { type ComponentSpec, field } from '../../config/spec.js';
import { isNoopPolicy } from '../../engine/batching.js';
import type { Input, InputReader, Transaction } from '../../engine/component.js';
import { ConfigError, NotConnectedError } from '../../engine/errors.js';
import { BatchedInput } from '../brokers/batched_input.js';
import { type BatchingConfig, batchingEnabled, batchingField } from '../fields/batching.js';
import { durationMs } from '../fields/duration.js';
import { PartitionCheckpoints } from '../kafka/checkpoints.js';
import { describeKafkaError, kafkaClientOptions, loadKafka } from '../kafka/client.js';
import { byteSize, type KafkaConnectionConfig, kafkaConnectionFields, seedBrokers } from '../kafka/fields.js';
import { recordToMessage } from '../kafka/records.js';

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

type Commit = () => void | Promise<void>;

/** Which topics to consume: names, or patterns matched against the cluster's topic list. */
export interface TopicSelection {
  names: string[];
  include: RegExp[];
  exclude: RegExp[];
}

export function topicSelection(config: KafkaFranzInputConfig): TopicSelection {
  const topics = (config.topics ?? [])
    .flatMap((t) => t.split(','))
    .map((t) => t.trim())
    .filter(Boolean);
  const include = (config.regexp_topics_include ?? []).map((p) => new RegExp(p));
  const exclude = (config.regexp_topics_exclude ?? []).map((p) => new RegExp(p));
  if (config.regexp_topics) include.push(...topics.map((p) => new RegExp(p)));
  const names = config.regexp_topics ? [] : topics;
  if (names.length === 0 && include.length === 0) {
    throw new ConfigError('kafka_franz: set `topics` or `regexp_topics_include`');
  }
  return { names, include, exclude };
}

/** Where a partition without a usable commit starts, as the client library names it. */
export function startMode(config: KafkaFranzInputConfig): 'committed' | 'earliest' | 'latest' {
  return config.start_from_oldest === false ? 'latest' : config.start_offset;
}

export class KafkaFranzReader implements InputReader {
  private consumer: Consumer | null = null;
  private stream: MessagesStream<Buffer, Buffer, Buffer, Buffer> | null = null;
  private iterator: AsyncIterator<KafkaMessage> | null = null;
  private readonly checkpoints: PartitionCheckpoints<Commit>;
  private commitTimer: NodeJS.Timeout | null = null;
  private readonly stop = new AbortController();
  private readonly brokers: string;

  constructor(
    private readonly config: KafkaFranzInputConfig,
    private readonly topics: TopicSelection,
    private readonly logger: Logger,
  ) {
    this.checkpoints = new PartitionCheckpoints(Math.max(1, config.checkpoint_limit));
    this.brokers = seedBrokers(config.seed_brokers).join(',');
  }

  async connect(): Promise<void> {
    const kafka = await loadKafka();
    const group = this.config.consumer_group;
    const consumer = new kafka.Consumer({
      ...(await kafkaClientOptions(this.config)),
      // Without a consumer group every run is a fresh member of its own group and commits nothing.
      groupId: group || `nekton-${randomUUID()}`,
      groupInstanceId: this.config.instance_id || undefined,
      sessionTimeout: durationMs(this.config.session_timeout, 'session_timeout'),
      // The library refuses a rebalance timeout below the session timeout, which the reference's
      // own defaults (45s, 1m) are: use the larger.
      rebalanceTimeout: Math.max(
        durationMs(this.config.rebalance_timeout, 'rebalance_timeout'),
        durationMs(this.config.session_timeout, 'session_timeout'),
      ),
      heartbeatInterval: durationMs(this.config.heartbeat_interval, 'heartbeat_interval'),
      minBytes: byteSize(this.config.fetch_min_bytes, 'fetch_min_bytes'),
      maxBytes: byteSize(this.config.fetch_max_bytes, 'fetch_max_bytes'),
      maxBytesPerPartition: byteSize(this.config.fetch_max_partition_bytes, 'fetch_max_partition_bytes'),
      maxWaitTime: durationMs(this.config.fetch_max_wait, 'fetch_max_wait'),
      isolationLevel: this.config.transaction_isolation_level === 'read_committed' ? 1 : 0,
    });
    try {
      const topics = await this.resolveTopics();
      const start = startMode(this.config);
      const stream = await consumer.consume({
        topics,
        autocommit: false,
        ...(group
          ? { mode: 'committed', fallbackMode: start === 'committed' ? 'fail' : start }
          : { mode: start === 'committed' ? 'earliest' : start }),
      });
      stream.on('error', (err) => this.logger.warn(`kafka consumer: ${describeKafkaError(err)}`));
      this.consumer = consumer;
      this.stream = stream;
      this.iterator = stream[Symbol.asyncIterator]();
    } catch (err) {
      await closeConsumer(consumer);
      throw new Error(`kafka_franz: seed brokers ${this.brokers}: ${describeKafkaError(err)}`);
    }
    if (group && !this.commitTimer) {
      const periodMs = durationMs(this.config.commit_period, 'commit_period');
      this.commitTimer = setInterval(() => void this.commit(), Math.max(10, periodMs));
      this.commitTimer.unref();
    }
  }

  async read(): Promise<Transaction | null> {
    const iterator = this.iterator;
    if (!iterator) throw new NotConnectedError(`kafka_franz: not connected to ${this.brokers}`);
    let step: IteratorResult<KafkaMessage>;
    try {
      step = await iterator.next();
    } catch (err) {
      if (this.stop.signal.aborted) return null;
      await this.dropConnection();
      throw new NotConnectedError(`kafka_franz: ${this.brokers}: ${describeKafkaError(err)}`);
    }
    if (step.done) {
      if (this.stop.signal.aborted) return null;
      await this.dropConnection();
      throw new NotConnectedError(`kafka_franz: the consumer stream from ${this.brokers} ended`);
    }
    const record = step.value;
    const key = `${record.topic}\u0000${record.partition}`;
    await this.checkpoints.waitForRoom(key, this.stop.signal);
    const delivered = this.checkpoints.track(key, record.offset, () => record.commit());
    return {
      batch: [recordToMessage(record, this.config.multi_header)],
      // A failed delivery is never committed past: the partition's commit point stays before it,
      // so the message comes again after a restart or rebalance.
      ack: async (err) => {
        if (err === null) delivered();
      },
    };
  }

  async close(): Promise<void> {
    this.stop.abort();
    this.checkpoints.release();
    if (this.commitTimer) clearInterval(this.commitTimer);
    this.commitTimer = null;
    await this.commit();
    await this.dropConnection();
  }

  /** Commits every partition whose commit point moved since the last commit. */
  private async commit(): Promise<void> {
    for (const commit of this.checkpoints.takeReady()) {
      try {
        await commit();
      } catch (err) {
        this.logger.warn(`kafka_franz: commit failed: ${describeKafkaError(err)}`);
      }
    }
  }

  private async dropConnection(): Promise<void> {
    const consumer = this.consumer;
    const stream = this.stream;
    this.consumer = null;
    this.stream = null;
    this.iterator = null;
    await stream?.close().catch(() => undefined);
    if (consumer) await closeConsumer(consumer);
  }

  private async resolveTopics(): Promise<string[]> {
    const { names, include, exclude } = this.topics;
    if (include.length === 0) return names;
    const kafka = await loadKafka();
    const admin = new kafka.Admin(await kafkaClientOptions(this.config));
    try {
      const all = await admin.listTopics();
      const matched = all.filter(
        (t) => include.some((re) => re.test(t)) && !exclude.some((re) => re.test(t)),
      );
      if (matched.length === 0 && names.length === 0) {
        throw new Error('no topic matches regexp_topics_include');
      }
      return [...new Set([...names, ...matched])];
    } finally {
      await admin.close().catch(() => undefined);
    }
  }
}

/** Closes without waiting for in-flight fetches (the overload with `force` returns the promise). */
async function closeConsumer(consumer: Consumer): Promise<void> {
  const close = consumer.close.bind(consumer) as (force?: boolean) => Promise<void>;
  await close(true).catch(() => undefined);
}

const a = { advanced: true };

export const spec: ComponentSpec<KafkaFranzInputConfig, Input> = {
  name: 'kafka_franz',
  kind: 'input',
  status: 'deprecated',
  categories: ['Services'],
  summary: 'Consumes Kafka topics as a member of a consumer group, committing offsets only after delivery.',
  description:
    "Each partition's offset is committed (every `commit_period`) only up to the last message that, with every earlier one, was delivered; at most `checkpoint_limit` messages per partition are in flight. A message whose delivery failed is never committed past, so it is consumed again after a restart or rebalance. Without `consumer_group` the input joins a fresh group of its own and commits nothing. Metadata: `kafka_key`, `kafka_topic`, `kafka_partition`, `kafka_offset`, `kafka_timestamp_unix`, `kafka_timestamp_ms`, `kafka_tombstone_message` and every record header. An unreachable broker fails the connection with the broker addresses and the reason: `/ready` answers 503 and nekton retries with backoff. The Kafka client library is loaded only when this component is used. SASL: PLAIN, SCRAM-SHA-256/512 and OAUTHBEARER; `rack_id`, `tcp` keep-alive, `conn_idle_timeout`, `topic_lag_refresh_period` and `timely_nacks_maximum_wait` are accepted but have no effect.",
  fields: [
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
          examples: [['^logs-.*']],
        },
      ),
    ),
    field.array(
      field.string('regexp_topics_exclude', 'Skip topics matching one of these regular expressions.', {
        optional: true,
      }),
    ),
    field.string('rack_id', 'The rack of this consumer (not used by nekton).', { default: '', ...a }),
    field.string('instance_id', 'A static group member id.', { default: '', ...a }),
    field.string('rebalance_timeout', 'How long a rebalance may take.', { default: '45s', ...a }),
    field.string('session_timeout', 'How long the group waits for a silent member.', { default: '1m', ...a }),
    field.string('heartbeat_interval', 'How often the member heartbeats.', { default: '3s', ...a }),
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
    field.string('fetch_max_wait', 'How long a fetch waits for `fetch_min_bytes`.', { default: '5s', ...a }),
    field.string('fetch_min_bytes', 'The least bytes a fetch waits for.', { default: '1B', ...a }),
    field.string('fetch_max_partition_bytes', 'The most bytes one fetch returns per partition.', {
      default: '1MiB',
      ...a,
    }),
    field.string('transaction_isolation_level', 'Whether to read records of aborted transactions.', {
      default: 'read_uncommitted',
      options: ['read_committed', 'read_uncommitted'],
    }),
    field.string('consumer_group', 'The consumer group to join; offsets are committed for it.', {
      optional: true,
    }),
    field.int('checkpoint_limit', 'The most messages per partition delivered but not yet acknowledged.', {
      default: 1024,
      ...a,
    }),
    field.string('commit_period', 'How often delivered offsets are committed.', { default: '5s', ...a }),
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
  ],
  examples: [
    {
      title: 'Consume two topics in a consumer group',
      config: `input:
  kafka_franz:
    seed_brokers: [ localhost:9092 ]
    topics: [ orders, refunds ]
    consumer_group: nekton-orders
    commit_period: 1s
output:
  stdout: {}
`,
    },
  ],
  async build(config, ctx) {
    const reader = new KafkaFranzReader(config, topicSelection(config), ctx.logger);
    const input = ctx.wrapReader(reader, { autoReplayNacks: config.auto_replay_nacks });
    if (!batchingEnabled(config.batching)) return input;
    const policy = await ctx.buildBatchPolicy(config.batching);
    return isNoopPolicy(policy) ? input : new BatchedInput(input, policy);
  },
};
