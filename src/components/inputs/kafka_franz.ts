// The `kafka_franz` input: consumes topics as a member of a consumer group and commits each
// partition's offset only once every message up to it was delivered (at-least-once).
import type { Consumer, Message as KafkaMessage, MessagesStream } from '@platformatic/kafka';
import type { Logger } from 'pino';
import { compileConfigPatterns } from '../../config/config_patterns.js';
import { type ComponentSpec, field } from '../../config/spec.js';
import { isNoopPolicy } from '../../engine/batching.js';
import type { Input, InputReader, Transaction } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import { ConfigError, NotConnectedError } from '../../engine/errors.js';
import type { Pattern } from '../../regexp/index.js';
import { BatchedInput } from '../brokers/batched_input.js';
import { type BatchingConfig, batchingEnabled, batchingField } from '../fields/batching.js';
import { durationMs } from '../fields/duration.js';
import { PartitionCheckpoints } from '../kafka/checkpoints.js';
import {
  answerWithin,
  describeKafkaError,
  type KafkaModule,
  kafkaClientOptions,
  loadKafka,
} from '../kafka/client.js';
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
  include: Pattern[];
  exclude: Pattern[];
}

const entries = (list: string[] | undefined): string[] =>
  (list ?? [])
    .flatMap((t) => t.split(','))
    .map((t) => t.trim())
    .filter(Boolean);

/** The reference's own checks of field combinations, in its words (plus what nekton lacks). */
export function lintKafkaFranzInput(config: KafkaFranzInputConfig): string[] {
  const topics = entries(config.topics);
  const include = entries(config.regexp_topics_include);
  const problems: string[] = [];
  if (topics.length === 0 && include.length === 0)
    problems.push('either topics or regexp_topics_include must be specified');
  if (topics.length > 0 && include.length > 0)
    problems.push('cannot specify both topics and regexp_topics_include, use one or the other');
  if (entries(config.regexp_topics_exclude).length > 0 && !config.regexp_topics && include.length === 0)
    problems.push(
      'regexp_topics_exclude can only be used when regexp_topics is set to true or regexp_topics_include is specified',
    );
  const explicit = config.regexp_topics ? [] : topics.filter((t) => t.includes(':'));
  if (explicit.length > 0) {
    problems.push(`explicit topic partitions (${explicit.join(', ')}) are not supported by nekton`);
  } else if (!config.consumer_group) {
    problems.push('a consumer group is mandatory when not using explicit topic partitions');
  }
  return problems;
}

export function topicSelection(config: KafkaFranzInputConfig, name = 'kafka_franz'): TopicSelection {
  const problem = lintKafkaFranzInput(config)[0];
  if (problem) throw new ConfigError(`${name}: ${problem}`);
  // Static membership needs @platformatic/kafka 1.27 or later, which requires Node 22.19; nekton
  // pins 1.22 so that it installs and runs on the Node 20 it claims. Refused, never ignored.
  if (config.instance_id) {
    throw new ConfigError(
      `${name}: instance_id (static group membership) is not supported by nekton on its Node 20 Kafka client`,
    );
  }
  const topics = entries(config.topics);
  const include = compileConfigPatterns(
    entries(config.regexp_topics_include),
    'kafka_franz: regexp_topics_include',
  );
  const exclude = compileConfigPatterns(
    entries(config.regexp_topics_exclude),
    'kafka_franz: regexp_topics_exclude',
  );
  if (config.regexp_topics) include.push(...compileConfigPatterns(topics, 'kafka_franz: topics'));
  return { names: config.regexp_topics ? [] : topics, include, exclude };
}

/** Where a partition without a usable commit starts, as the client library names it. */
export function startMode(config: KafkaFranzInputConfig): 'committed' | 'earliest' | 'latest' {
  return config.start_from_oldest === false ? 'latest' : config.start_offset;
}

export class KafkaFranzReader implements InputReader {
  private consumer: Consumer | null = null;
  private stream: MessagesStream<Buffer, Buffer, Buffer, Buffer> | null = null;
  private iterator: AsyncIterator<KafkaMessage> | null = null;
  /** A next() of the stream that a replay overtook; the following read takes it up. */
  private pendingNext: Promise<IteratorResult<KafkaMessage>> | null = null;
  /** A record taken from the stream while its partition had `checkpoint_limit` messages out. */
  private held: KafkaMessage | null = null;
  /** Per connection: a new consumer starts again from the committed offsets. */
  private checkpoints: PartitionCheckpoints<Commit>;
  /** Nacked messages, handed out again before anything new (auto_replay_nacks). */
  private replays: Array<() => Transaction> = [];
  /** Ends the wait of a read() blocked on the stream or on a full partition. */
  private wakeReader: (() => void) | null = null;
  private commitTimer: NodeJS.Timeout | null = null;
  private closing = false;
  private readonly brokers: string;

  constructor(
    private readonly config: KafkaFranzInputConfig,
    private readonly topics: TopicSelection,
    private readonly logger: Logger,
    /** The client library; tests pass a stand-in, since no broker is reachable for them. */
    private readonly load: () => Promise<KafkaModule> = loadKafka,
    /** The component name its errors start with (kafka, redpanda... share this reader). */
    private readonly name = 'kafka_franz',
  ) {
    this.checkpoints = this.newCheckpoints();
    this.brokers = seedBrokers(config.seed_brokers).join(',');
  }

  async connect(): Promise<void> {
    await this.dropConnection();
    const kafka = await this.load();
    // Checked at build (lint): the reference needs a group unless partitions are explicit.
    const group = this.config.consumer_group ?? '';
    const rebalanceMs = Math.max(
      durationMs(this.config.rebalance_timeout, 'rebalance_timeout'),
      durationMs(this.config.session_timeout, 'session_timeout'),
    );
    const fetchWaitMs = durationMs(this.config.fetch_max_wait, 'fetch_max_wait');
    // fetch_max_partition_bytes is checked but has no effect: 1.22 (the last @platformatic/kafka
    // release that runs on Node 20) asks each partition for up to fetch_max_bytes.
    byteSize(this.config.fetch_max_partition_bytes, 'fetch_max_partition_bytes');
    const clientOptions = await kafkaClientOptions(this.config, Math.max(rebalanceMs, fetchWaitMs));
    const consumer = new kafka.Consumer({
      ...clientOptions,
      groupId: group,
      sessionTimeout: durationMs(this.config.session_timeout, 'session_timeout'),
      // The library refuses a rebalance timeout below the session timeout, which the reference's
      // own defaults (45s, 1m) are: use the larger.
      rebalanceTimeout: rebalanceMs,
      heartbeatInterval: durationMs(this.config.heartbeat_interval, 'heartbeat_interval'),
      minBytes: byteSize(this.config.fetch_min_bytes, 'fetch_min_bytes'),
      maxBytes: byteSize(this.config.fetch_max_bytes, 'fetch_max_bytes'),
      maxWaitTime: fetchWaitMs,
      isolationLevel:
        this.config.transaction_isolation_level === 'read_committed' ? 'READ_COMMITTED' : 'READ_UNCOMMITTED',
    });
    let stream: MessagesStream<Buffer, Buffer, Buffer, Buffer>;
    try {
      const start = startMode(this.config);
      const subscribe = async () =>
        consumer.consume({
          topics: await this.resolveTopics(kafka),
          autocommit: false,
          mode: 'committed',
          fallbackMode: start === 'committed' ? 'fail' : start,
        });
      stream = await answerWithin(subscribe(), clientOptions);
    } catch (err) {
      await closeConsumer(consumer);
      throw new Error(`${this.name}: seed brokers ${this.brokers}: ${describeKafkaError(err)}`);
    }
    stream.on('error', (err) => this.logger.warn(`kafka consumer: ${describeKafkaError(err)}`));
    this.consumer = consumer;
    this.stream = stream;
    this.iterator = stream[Symbol.asyncIterator]();
    if (this.closing) {
      await this.dropConnection();
      return;
    }
    if (!this.commitTimer) {
      const periodMs = durationMs(this.config.commit_period, 'commit_period');
      this.commitTimer = setInterval(() => void this.commitDelivered(), Math.max(10, periodMs));
      this.commitTimer.unref();
    }
  }

  async read(): Promise<Transaction | null> {
    for (;;) {
      if (this.closing) return null;
      const replay = this.replays.shift();
      if (replay) return replay();
      const iterator = this.iterator;
      if (!iterator) throw new NotConnectedError(`${this.name}: not connected to ${this.brokers}`);
      if (!this.held) {
        this.pendingNext ??= iterator.next();
        let step: IteratorResult<KafkaMessage> | undefined;
        try {
          step = await this.untilWoken(this.pendingNext);
        } catch (err) {
          if (this.closing) return null;
          await this.dropConnection();
          throw new NotConnectedError(`${this.name}: ${this.brokers}: ${describeKafkaError(err)}`);
        }
        if (step === undefined) continue; // woken: a replay (or close) comes first
        this.pendingNext = null;
        if (step.done) {
          if (this.closing) return null;
          await this.dropConnection();
          throw new NotConnectedError(`${this.name}: the consumer stream from ${this.brokers} ended`);
        }
        this.held = step.value;
      }
      const record = this.held;
      const key = `${record.topic}\u0000${record.partition}`;
      if (!this.checkpoints.hasRoom(key)) {
        // Waiting here must not hold back a replay: it may be what frees the room.
        await this.untilWoken(this.checkpoints.waitForRoom(key));
        continue;
      }
      this.held = null;
      return this.handOut(record, key);
    }
  }

  /**
   * The transaction of a record. A delivered message moves its partition's commit point (once
   * every earlier one was delivered too). A nacked one is handed out again before anything new
   * and holds the commit point until then; with `auto_replay_nacks: false` it is dropped and
   * committed past, as the reference does.
   */
  private handOut(record: KafkaMessage, key: string): Transaction {
    const checkpoints = this.checkpoints;
    const delivered = checkpoints.track(key, record.offset, () => record.commit());
    const transaction = (): Transaction => ({
      batch: [recordToMessage(record, this.config.multi_header)],
      ack: async (err) => {
        if (err === null || !this.config.auto_replay_nacks) {
          // Dropped on purpose (auto_replay_nacks: false), but never silently.
          if (err !== null)
            this.logger.warn(
              `${this.name}: dropping nacked message ${record.topic}/${record.partition}@${record.offset} (auto_replay_nacks is false): ${err.message}`,
            );
          delivered();
          return;
        }
        // Closed or reconnected meanwhile: never committed, so it is consumed again from Kafka.
        if (this.closing || checkpoints !== this.checkpoints) return;
        this.replays.push(transaction);
        this.wakeReader?.();
      },
    });
    return transaction();
  }

  async close(): Promise<void> {
    this.closing = true;
    this.wakeReader?.();
    if (this.commitTimer) clearInterval(this.commitTimer);
    this.commitTimer = null;
    await this.commitDelivered();
    await this.dropConnection();
  }

  /** Commits every partition whose commit point moved since the last commit (every `commit_period`). */
  async commitDelivered(): Promise<void> {
    for (const commit of this.checkpoints.takeReady()) {
      try {
        await commit();
      } catch (err) {
        this.logger.warn(`${this.name}: commit failed: ${describeKafkaError(err)}`);
      }
    }
  }

  /** `work`, or undefined once the reader is woken (a replay arrived, or close). */
  private untilWoken<T>(work: Promise<T>): Promise<T | undefined> {
    return new Promise<T | undefined>((resolve, reject) => {
      this.wakeReader = () => resolve(undefined);
      work.then(resolve, reject);
    }).finally(() => {
      this.wakeReader = null;
    });
  }

  private newCheckpoints(): PartitionCheckpoints<Commit> {
    return new PartitionCheckpoints(Math.max(1, this.config.checkpoint_limit));
  }

  private async dropConnection(): Promise<void> {
    const consumer = this.consumer;
    const stream = this.stream;
    this.consumer = null;
    this.stream = null;
    this.iterator = null;
    this.pendingNext = null;
    this.held = null;
    // The next consumer starts again from the committed offsets: what this one handed out and
    // was not committed comes again, so its replays and commit points are dropped.
    this.replays = [];
    this.checkpoints.release();
    this.checkpoints = this.newCheckpoints();
    await stream?.close().catch(() => undefined);
    if (consumer) await closeConsumer(consumer);
  }

  private async resolveTopics(kafka: KafkaModule): Promise<string[]> {
    const { names, include, exclude } = this.topics;
    if (include.length === 0) return names;
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
    "Each partition's offset is committed (every `commit_period`) only up to the last message that, with every earlier one, was delivered; at most `checkpoint_limit` messages per partition are in flight. A nacked message is delivered again (before anything new) and its partition is not committed past it until it is delivered; with `auto_replay_nacks: false` it is dropped and committed past, as in the reference, and a warning names its topic, partition and offset. What was not committed when nekton stops or loses the connection is consumed again. Metadata: `kafka_key`, `kafka_topic`, `kafka_partition`, `kafka_offset`, `kafka_timestamp_unix`, `kafka_timestamp_ms`, `kafka_tombstone_message` and every record header. An unreachable broker fails the connection with the broker addresses and the reason: `/ready` answers 503 and nekton retries with backoff. The Kafka client library is loaded only when this component is used. Explicit topic partitions (`foo:0`) are not supported. SASL: PLAIN, SCRAM-SHA-256/512 and OAUTHBEARER; `rack_id`, `tcp` keep-alive, `conn_idle_timeout`, `topic_lag_refresh_period` and `timely_nacks_maximum_wait` are accepted but have no effect.",
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
    field.string('consumer_group', 'The consumer group to join (required); offsets are committed for it.', {
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
  lint: lintKafkaFranzInput,
  build: (config, ctx) => buildConsumerInput(config, ctx, 'kafka_franz'),
};

/** The input of a consumer config: kafka_franz's own, or one the kafka and redpanda inputs map onto it. */
export async function buildConsumerInput(
  config: KafkaFranzInputConfig,
  ctx: BuildContext,
  name: string,
): Promise<Input> {
  const reader = new KafkaFranzReader(config, topicSelection(config, name), ctx.logger, loadKafka, name);
  // The reader replays nacks itself: the engine's replay would wait behind a read() blocked on a
  // partition that is full because of the very message to replay.
  const input = ctx.wrapReader(reader, { autoReplayNacks: false });
  if (!batchingEnabled(config.batching)) return input;
  const policy = await ctx.buildBatchPolicy(config.batching);
  return isNoopPolicy(policy) ? input : new BatchedInput(input, policy);
}
