// The consumer behind the kafka_franz, kafka and redpanda inputs: reads as a member of a consumer
// group and commits each partition's offset only once every message up to it was delivered.
import type { Consumer, Message as KafkaMessage, MessagesStream } from '@platformatic/kafka';
import type { Logger } from 'pino';
import type { InputReader, Transaction } from '../../engine/component.js';
import { NotConnectedError } from '../../engine/errors.js';
import { PartitionCheckpoints } from './checkpoints.js';
import {
  answerWithin,
  describeKafkaError,
  type KafkaModule,
  kafkaClientOptions,
  loadKafka,
} from './client.js';
import { byteSize, seedBrokers } from './fields.js';
import type { KafkaFranzInputConfig } from './franz_input_fields.js';
import { startMode, type TopicSelection } from './franz_topics.js';
import { recordToMessage } from './records.js';

// The config arrives parsed (durations in ms), from kafka_franz's spec or mapped onto its shape by
// the kafka and redpanda inputs.
type Commit = () => void | Promise<void>;

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
    const rebalanceMs = Math.max(this.config.rebalance_timeout, this.config.session_timeout);
    const fetchWaitMs = this.config.fetch_max_wait;
    // fetch_max_partition_bytes is checked but has no effect: 1.22 (the last @platformatic/kafka
    // release that runs on Node 20) asks each partition for up to fetch_max_bytes.
    byteSize(this.config.fetch_max_partition_bytes, 'fetch_max_partition_bytes');
    const clientOptions = await kafkaClientOptions(this.config, Math.max(rebalanceMs, fetchWaitMs));
    const consumer = new kafka.Consumer({
      ...clientOptions,
      groupId: group,
      sessionTimeout: this.config.session_timeout,
      // The library refuses a rebalance timeout below the session timeout, which the reference's
      // own defaults (45s, 1m) are: use the larger.
      rebalanceTimeout: rebalanceMs,
      heartbeatInterval: this.config.heartbeat_interval,
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
      this.commitTimer = setInterval(
        () => void this.commitDelivered(),
        Math.max(10, this.config.commit_period),
      );
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
