// The `kafka_franz` output: produces each message as a record (topic, key, partition and
// timestamp interpolated, chosen metadata as headers). A batch is one produce request and counts
// as written only once the brokers acknowledged it (`acks`).
import type { Producer } from '@platformatic/kafka';
import type { Interpolation } from '../../bloblang/index.js';
import { type ConfigOf, defineComponent, field } from '../../config/spec.js';
import type { Output, OutputWriter } from '../../engine/component.js';
import { ConfigError, NotConnectedError } from '../../engine/errors.js';
import type { Batch } from '../../message/message.js';
import { batchingField } from '../fields/batching.js';
import { refuseProblems } from '../fields/config_problems.js';
import { metadataFilterField } from '../fields/metadata.js';
import {
  answerWithin,
  describeKafkaError,
  type KafkaModule,
  kafkaClientOptions,
  loadKafka,
} from '../kafka/client.js';
import {
  type KafkaConnectionConfig,
  kafkaConnectionFields,
  saslProblems,
  seedBrokers,
} from '../kafka/fields.js';
import type { PartitionerFn } from '../kafka/partitioners.js';
import { recordTimestampFields } from '../kafka/record_fields.js';
import { isSet, messageToRecord, type RecordTemplate, recordSize, templateIfSet } from '../kafka/records.js';

const PARTITIONERS = ['least_backup', 'manual', 'murmur2_hash', 'round_robin'] as const;
const COMPRESSIONS = ['lz4', 'snappy', 'gzip', 'none', 'zstd'] as const;
const ACKS: Record<string, -1 | 0 | 1> = { all: -1, leader: 1, none: 0 };

/** What the produce requests need, checked at build time so a bad value is a config error. */
export interface ProduceSettings {
  acks: -1 | 0 | 1;
  idempotent: boolean;
  compression: 'none' | 'gzip' | 'snappy' | 'lz4' | 'zstd';
  autocreateTopics: boolean;
  /** How records without an explicit partition are spread (the `kafka` output's partitioners). */
  partitioner?: PartitionerFn;
  /** A record larger than this fails its batch before anything is sent (the `kafka` output). */
  maxMessageBytes?: number;
}

/** An interpolated field as written (lint) or compiled (build). */
type WrittenOrCompiled = string | Interpolation | undefined;

/** What the combination checks read; the interpolated fields may be written or compiled. */
type ProduceChecks = Pick<KafkaFranzOutputConfig, 'idempotent_write' | 'max_in_flight_requests'> & {
  partitioner?: string;
  acks: string;
  partition?: WrittenOrCompiled;
  timestamp?: WrittenOrCompiled;
  timestamp_ms?: WrittenOrCompiled;
};

/** The reference's own checks of field combinations, in its words. */
export function lintKafkaFranzOutput(config: ProduceChecks): string[] {
  const problems: string[] = [];
  if (config.partitioner === 'manual' && !isSet(config.partition))
    problems.push('a partition must be specified when the partitioner is set to manual');
  if (isSet(config.partition) && config.partitioner !== 'manual')
    problems.push('a partition cannot be specified unless the partitioner is set to manual');
  if (isSet(config.timestamp) && isSet(config.timestamp_ms))
    problems.push('both timestamp and timestamp_ms cannot be specified simultaneously');
  if (config.idempotent_write && config.acks !== 'all')
    problems.push('idempotent_write requires acks to be set to all');
  if (config.idempotent_write && config.max_in_flight_requests !== 1)
    problems.push(
      'idempotent_write requires max_in_flight_requests to be 1, set idempotent_write to false to use higher values',
    );
  return problems;
}

/** The produce options; refuses what lint refuses, since a component built through the API skips lint. */
export function produceSettings(
  config: ProduceChecks & Pick<KafkaFranzOutputConfig, 'compression' | 'allow_auto_topic_creation'>,
): ProduceSettings {
  refuseProblems(lintKafkaFranzOutput(config));
  const acks = ACKS[config.acks];
  if (acks === undefined) throw new ConfigError(`acks: ${config.acks} is not one of all, leader, none`);
  const compression: string = config.compression ?? 'none';
  if (!(COMPRESSIONS as readonly string[]).includes(compression))
    throw new ConfigError(`compression: ${compression} is not one of ${COMPRESSIONS.join(', ')}`);
  if (config.partitioner !== undefined && !(PARTITIONERS as readonly string[]).includes(config.partitioner))
    throw new ConfigError(`partitioner: ${config.partitioner} is not one of ${PARTITIONERS.join(', ')}`);
  return {
    acks,
    idempotent: config.idempotent_write,
    compression: compression as ProduceSettings['compression'],
    autocreateTopics: config.allow_auto_topic_creation,
  };
}

/** The interpolated fields (compiled by the spec) and the header filter of the config. */
export function recordTemplate(
  config: Pick<
    KafkaFranzOutputConfig,
    'topic' | 'key' | 'partition' | 'timestamp' | 'timestamp_ms' | 'metadata'
  >,
): RecordTemplate {
  return {
    topic: config.topic,
    key: templateIfSet(config.key),
    partition: templateIfSet(config.partition),
    timestampMs: templateIfSet(config.timestamp_ms),
    timestampSec: templateIfSet(config.timestamp),
    includeMeta: config.metadata,
  };
}

export class KafkaFranzWriter implements OutputWriter {
  private producer: Producer<Buffer, Buffer, Buffer, Buffer> | null = null;
  private closed = false;
  private readonly brokers: string;
  private readonly timeoutMs: number;

  constructor(
    private readonly config: KafkaFranzOutputConfig,
    private readonly template: RecordTemplate,
    private readonly settings: ProduceSettings,
    /** The client library; tests pass a stand-in, since no broker is reachable for them. */
    private readonly load: () => Promise<KafkaModule> = loadKafka,
    /** The component name its errors start with (kafka, redpanda... share this writer). */
    private readonly name = 'kafka_franz',
  ) {
    this.brokers = seedBrokers(config.seed_brokers).join(',');
    this.timeoutMs = config.timeout || 10_000;
  }

  async connect(): Promise<void> {
    await this.drop();
    const kafka = await this.load();
    const clientOptions = await kafkaClientOptions(this.config, this.timeoutMs);
    const producer = new kafka.Producer<Buffer, Buffer, Buffer, Buffer>({
      ...clientOptions,
      acks: this.settings.acks,
      // Idempotence is asked for per send: a producer constructed idempotent never settles its
      // metadata request while no broker answers (seen with @platformatic/kafka 1.35).
      compression: this.settings.compression,
      autocreateTopics: this.settings.autocreateTopics,
      ...(this.settings.partitioner ? { partitioner: this.settings.partitioner } : {}),
    });
    try {
      // The client connects lazily: asking for the cluster's metadata proves a broker answers.
      await answerWithin(producer.metadata({ topics: [] }), clientOptions);
    } catch (err) {
      await closeProducer(producer);
      throw new Error(`${this.name}: seed brokers ${this.brokers}: ${describeKafkaError(err)}`);
    }
    if (this.closed) {
      await closeProducer(producer);
      return;
    }
    this.producer = producer;
  }

  async write(batch: Batch): Promise<void> {
    const producer = this.producer;
    if (!producer) throw new NotConnectedError(`${this.name}: not connected to ${this.brokers}`);
    // Every record first: a bad key, partition or timestamp fails the batch before anything is sent.
    let messages: ReturnType<typeof messageToRecord>[];
    try {
      messages = batch.map((_, i) => messageToRecord(batch, i, this.template));
    } catch (err) {
      throw new UnsendableBatchError(`${this.name}: ${(err as Error).message}`);
    }
    const limit = this.settings.maxMessageBytes;
    if (limit !== undefined) {
      for (const [i, m] of messages.entries()) {
        const size = recordSize(m);
        if (size > limit)
          throw new Error(`${this.name}: message ${i} is ${size} bytes, more than max_msg_bytes (${limit})`);
      }
    }
    try {
      await withTimeout(producer.send({ messages, idempotent: this.settings.idempotent }), this.timeoutMs);
    } catch (err) {
      if (err instanceof SendTimeout || isNetworkError(err)) {
        await this.drop();
        throw new NotConnectedError(`${this.name}: ${this.brokers}: ${describeKafkaError(err)}`);
      }
      throw new Error(`${this.name}: ${describeKafkaError(err)}`);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.drop();
  }

  private async drop(): Promise<void> {
    const producer = this.producer;
    this.producer = null;
    if (producer) await closeProducer(producer);
  }
}

class SendTimeout extends Error {}

/** A batch that no retry can send (a bad partition or timestamp): it fails at once. */
export class UnsendableBatchError extends Error {}

/** The send, or a SendTimeout once `ms` passed without an answer (the connection is then presumed lost). */
function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SendTimeout(`no answer from the brokers within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Closes without waiting for requests in flight (the overload with `force` returns the promise). */
async function closeProducer(producer: Producer<Buffer, Buffer, Buffer, Buffer>): Promise<void> {
  // The pinned 1.22 (the last release that runs on Node 20) closes at once and takes no `force`.
  await producer.close().catch(() => undefined);
}

/** Lost connections make the engine reconnect; anything else (too large, unknown topic...) fails the write. */
export function isNetworkError(err: unknown): boolean {
  const text = describeKafkaError(err);
  return /ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|socket|Connection to .* failed|Cannot connect|closed/i.test(
    text,
  );
}

const a = { advanced: true };

/** kafka_franz's output fields; the redpanda output picks from them. */
export const kafkaFranzOutputFields = [
  ...kafkaConnectionFields(),
  field.interpolated('topic', 'The topic of each record.', {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation
    examples: ['orders', '${! @kafka_topic }'],
  }),
  field.interpolated('key', 'The key of each record.', { optional: true }),
  field.interpolated('partition', 'The partition of each record, with `partitioner: manual`.', {
    optional: true,
  }),
  metadataFilterField('metadata', 'Which metadata entries become record headers.', {
    optional: true,
    advanced: false,
  }),
  ...recordTimestampFields(),
  field.int('max_in_flight', 'How many batches may be produced at once.', { default: 10 }),
  batchingField(),
  field.string('rack_id', 'Deprecated and not used.', { deprecated: true }),
  field.enum('partitioner', 'How records are spread over partitions.', PARTITIONERS, {
    optional: true,
    ...a,
  }),
  field.bool('idempotent_write', 'Produce idempotently (needs `acks: all`).', { default: true, ...a }),
  field.enum('acks', 'Which acknowledgement a write waits for.', ['all', 'leader', 'none'], {
    default: 'all',
    ...a,
  }),
  field.enum('compression', 'How record batches are compressed.', COMPRESSIONS, { optional: true, ...a }),
  field.bool('allow_auto_topic_creation', 'Let the brokers create a topic that does not exist.', {
    default: true,
    ...a,
  }),
  field.duration('timeout', 'How long a produce request may take before the connection is presumed lost.', {
    default: '10s',
    ...a,
  }),
  field.string('max_message_bytes', 'The largest record batch (not used by nekton).', {
    default: '1MiB',
    ...a,
  }),
  field.string('broker_write_max_bytes', 'The largest write to a broker (not used by nekton).', {
    default: '100MiB',
    ...a,
  }),
  field.int('max_buffered_records', 'Records buffered before producing blocks (not used by nekton).', {
    default: 10000,
    ...a,
  }),
  field.string('max_buffered_bytes', 'Bytes buffered before producing blocks (not used by nekton).', {
    default: '0',
    ...a,
  }),
  field.int('max_in_flight_requests', 'Produce requests in flight per broker (not used by nekton).', {
    default: 1,
    ...a,
  }),
  field.int('record_retries', 'Retries of one record (not used: nekton retries the batch).', {
    default: 0,
    ...a,
  }),
  field.string('record_delivery_timeout', 'How long a record may take (not used by nekton).', {
    default: '0s',
    ...a,
  }),
];

/**
 * The parsed config of the producer (interpolations compiled, durations in ms): kafka_franz's own,
 * or the one the kafka and redpanda outputs map theirs onto (`sasl` narrowed as in KafkaConnectionConfig).
 */
export type KafkaFranzOutputConfig = Omit<ConfigOf<typeof kafkaFranzOutputFields>, 'sasl'> &
  Pick<KafkaConnectionConfig, 'sasl'>;

export const spec = defineComponent({
  name: 'kafka_franz',
  kind: 'output',
  status: 'stable',
  categories: ['Services'],
  summary: 'Produces messages to Kafka topics; a batch counts as written once the brokers acknowledged it.',
  description:
    'Each message becomes a record: its content the value, `key` and `topic` interpolated, metadata selected by `metadata` as headers. The messages of a batch go out in one produce request. A lost connection makes nekton reconnect with backoff and send the batch again (duplicates are possible: delivery is at-least-once); any other error (too large, unknown topic without auto-creation) fails the batch, which is nacked. `partitioner: manual` takes the partition from `partition`; the other partitioners use the client library’s default (murmur2 hash of the key, round robin without one). The Kafka client library is loaded only when this component is used. `rack_id`, `max_message_bytes`, `broker_write_max_bytes`, `max_buffered_*`, `max_in_flight_requests`, `record_retries` and `record_delivery_timeout` are accepted but have no effect.',
  fields: kafkaFranzOutputFields,
  examples: [
    {
      title: 'Produce to a topic keyed by customer',
      config: `input:
  stdin: {}
output:
  kafka_franz:
    seed_brokers: [ localhost:9092 ]
    topic: orders
    key: \${! json("customer_id") }
    metadata:
      include_prefixes: [ trace_ ]
    batching:
      count: 100
      period: 50ms
`,
    },
  ],
  lint: (config) => [...lintKafkaFranzOutput(config), ...saslProblems(config.sasl)],
  build(config, ctx): Output {
    const settings = produceSettings(config);
    return ctx.wrapWriter(new KafkaFranzWriter(config, recordTemplate(config), settings), {
      maxInFlight: config.max_in_flight,
      batching: config.batching,
    });
  },
});
