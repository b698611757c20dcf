// The older `kafka` output (Sarama in the reference): its fields mapped onto the kafka_franz
// producer. Sarama's partitioners are reproduced (fnv1a_hash is the default), a record above
// `max_msg_bytes` fails its batch, and a failed send is retried with `backoff` up to `max_retries`.

import type { Interpolation } from '../../bloblang/index.js';
import { type ConfigOf, defineComponent, field } from '../../config/spec.js';
import { Backoff, sleep } from '../../engine/backoff.js';
import type { Output, OutputWriter } from '../../engine/component.js';
import { ConfigError, NotConnectedError } from '../../engine/errors.js';
import { stopController } from '../../engine/stop_signal.js';
import type { Batch } from '../../message/message.js';
import { backoffField, type ParsedBackoff } from '../fields/backoff.js';
import { batchingField } from '../fields/batching.js';
import { refuseProblems } from '../fields/config_problems.js';
import { tlsField } from '../fields/tls.js';
import { type KafkaModule, loadKafka } from '../kafka/client.js';
import { saramaPartitioner } from '../kafka/partitioners.js';
import { recordTimestampFields } from '../kafka/record_fields.js';
import { isSet, type RecordTemplate } from '../kafka/records.js';
import {
  addressesField,
  clientIdField,
  franzConnection,
  saramaProblems,
  saramaSaslField,
  targetVersionField,
} from '../kafka/sarama_fields.js';
import { tracingMapField } from '../nats/connection.js';
import {
  type KafkaFranzOutputConfig,
  KafkaFranzWriter,
  type ProduceSettings,
  recordTemplate,
  UnsendableBatchError,
} from './kafka_franz.js';

const PARTITIONERS = ['fnv1a_hash', 'murmur2_hash', 'random', 'round_robin', 'manual'] as const;
const COMPRESSIONS = ['none', 'snappy', 'lz4', 'gzip', 'zstd'] as const;

const a = { advanced: true };

const fields = [
  addressesField(),
  tlsField(),
  saramaSaslField(),
  field.interpolated('topic', 'The topic of each record.', {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation
    examples: ['orders', '${! @kafka_topic }'],
  }),
  clientIdField(),
  targetVersionField(),
  field.string('rack_id', 'The rack of this producer (not used by nekton).', { default: '', ...a }),
  field.interpolated('key', 'The key of each record; empty: no key.', { default: '' }),
  field.enum('partitioner', 'How records are spread over partitions.', PARTITIONERS, {
    default: 'fnv1a_hash',
  }),
  field.interpolated('partition', 'The partition of each record, with `partitioner: manual`.', {
    default: '',
    ...a,
  }),
  field.object(
    'custom_topic_creation',
    'Create missing topics with chosen partitions and replicas (not supported by nekton).',
    [
      field.bool('enabled', 'Create missing topics.', { default: false, ...a }),
      field.int('partitions', 'Partitions of a created topic (-1: the broker default).', {
        default: -1,
        ...a,
      }),
      field.int('replication_factor', 'Replicas of a created topic (-1: the broker default).', {
        default: -1,
        ...a,
      }),
    ],
    { optional: true, ...a },
  ),
  field.enum('compression', 'How record batches are compressed.', COMPRESSIONS, { default: 'none' }),
  field.map(field.string('static_headers', 'Headers added to every record.', { optional: true })),
  field.object('metadata', 'Which metadata entries become record headers: all but those excluded.', [
    field.array(
      field.string('exclude_prefixes', 'Metadata keys starting with any of these are not sent.', {
        default: [],
      }),
    ),
  ]),
  tracingMapField('inject_tracing_map'),
  field.int('max_in_flight', 'How many batches may be produced at once.', { default: 64 }),
  field.bool('idempotent_write', 'Produce idempotently (needs `ack_replicas`).', { default: false, ...a }),
  field.bool('ack_replicas', 'Wait for every in-sync replica, not only the leader.', {
    default: false,
    ...a,
  }),
  field.int('max_msg_bytes', 'The largest record (key, value and headers); a larger one fails its batch.', {
    default: 1000000,
    ...a,
  }),
  field.duration('timeout', 'How long a produce request may take before the connection is presumed lost.', {
    default: '5s',
    ...a,
  }),
  field.bool('retry_as_batch', 'Not needed by nekton: a batch is always retried whole.', {
    default: false,
    ...a,
  }),
  batchingField(),
  field.int(
    'max_retries',
    'The most retries of a failed send (0: no limit but `backoff.max_elapsed_time`).',
    {
      default: 0,
      ...a,
    },
  ),
  backoffField({ initial_interval: '3s', max_interval: '10s', max_elapsed_time: '30s' }, { advanced: true }),
  ...recordTimestampFields(),
];

/** The parsed config of a `kafka` output (interpolations compiled, durations in ms). */
export type KafkaOutputConfig = ConfigOf<typeof fields>;

/** An interpolated field as written (lint) or compiled (build). */
type WrittenOrCompiled = string | Interpolation | undefined;

/** The reference's checks, in its words where it has them, and what nekton cannot do. */
export function lintKafkaOutput(
  config: Pick<KafkaOutputConfig, 'target_version' | 'idempotent_write' | 'ack_replicas'> & {
    sasl?: Parameters<typeof saramaProblems>[0];
    partitioner: string;
    partition: WrittenOrCompiled;
    timestamp?: WrittenOrCompiled;
    timestamp_ms?: WrittenOrCompiled;
    custom_topic_creation?: { enabled: boolean };
  },
): string[] {
  const problems = saramaProblems(config.sasl, config.target_version);
  if (config.partitioner === 'manual' && !isSet(config.partition))
    problems.push("partition field required for 'manual' partitioner");
  if (isSet(config.partition) && config.partitioner !== 'manual')
    problems.push("partition field can only be specified for 'manual' partitioner");
  if (isSet(config.timestamp) && isSet(config.timestamp_ms))
    problems.push('both timestamp and timestamp_ms cannot be specified simultaneously');
  if (config.idempotent_write && !config.ack_replicas)
    problems.push(
      'idempotent_write requires ack_replicas to be true (idempotent writes wait for all replicas)',
    );
  if (config.custom_topic_creation?.enabled)
    problems.push(
      'custom_topic_creation is not supported by nekton: create the topic beforehand (or let the brokers auto-create it)',
    );
  return problems;
}

/**
 * The parsed kafka_franz producer config of a `kafka` output (connection and record fields).
 * Refuses what lint refuses, since a component built through the API skips lint.
 */
export function producerConfig(config: KafkaOutputConfig): KafkaFranzOutputConfig {
  refuseProblems(lintKafkaOutput(config), 'kafka: ');
  if (!(PARTITIONERS as readonly string[]).includes(config.partitioner))
    throw new ConfigError(
      `kafka: partitioner: ${config.partitioner} is not one of ${PARTITIONERS.join(', ')}`,
    );
  if (!(COMPRESSIONS as readonly string[]).includes(config.compression))
    throw new ConfigError(
      `kafka: compression: ${config.compression} is not one of ${COMPRESSIONS.join(', ')}`,
    );
  return {
    ...franzConnection(config),
    topic: config.topic,
    key: config.key,
    partition: config.partition,
    metadata: null,
    timestamp: config.timestamp,
    timestamp_ms: config.timestamp_ms,
    max_in_flight: config.max_in_flight,
    batching: config.batching,
    rack_id: config.rack_id,
    partitioner: config.partitioner === 'manual' ? 'manual' : undefined,
    idempotent_write: config.idempotent_write,
    acks: config.ack_replicas ? 'all' : 'leader',
    compression: config.compression,
    allow_auto_topic_creation: true,
    timeout: config.timeout,
    max_message_bytes: String(config.max_msg_bytes),
    broker_write_max_bytes: '100MiB',
    max_buffered_records: 10000,
    max_buffered_bytes: '0',
    max_in_flight_requests: 1,
    record_retries: 0,
    record_delivery_timeout: '0s',
  };
}

/** What the produce requests need: acks from `ack_replicas`, Sarama's partitioner, the size limit. */
export function kafkaProduceSettings(config: KafkaOutputConfig): ProduceSettings {
  return {
    acks: config.ack_replicas ? -1 : 1,
    idempotent: config.idempotent_write,
    compression: config.compression as ProduceSettings['compression'],
    autocreateTopics: true,
    partitioner: saramaPartitioner(config.partitioner),
    maxMessageBytes: config.max_msg_bytes,
  };
}

/** Every record carries the metadata not excluded by prefix, then `static_headers`. */
export function kafkaRecordTemplate(config: KafkaOutputConfig, base: RecordTemplate): RecordTemplate {
  const excluded = config.metadata?.exclude_prefixes ?? [];
  return {
    ...base,
    includeMeta: (key) => !excluded.some((p) => key.startsWith(p)),
    staticHeaders: Object.entries(config.static_headers ?? {}).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  };
}

/**
 * Retries a failed send as the reference does: after each failure it waits the next `backoff`
 * interval and sends again, until `max_retries` (0: no limit) or `backoff.max_elapsed_time` runs
 * out; then the batch fails (and is nacked). A lost connection goes straight to the engine, which
 * reconnects; a batch that cannot become records (bad partition or timestamp) fails at once.
 */
export class RetryingKafkaWriter implements OutputWriter {
  /** Writes in flight wait on it while they back off (a listener each). */
  private readonly closing = stopController();

  constructor(
    private readonly inner: OutputWriter,
    private readonly maxRetries: number,
    private readonly backoff: ParsedBackoff,
  ) {}

  connect(): Promise<void> {
    return this.inner.connect();
  }

  async write(batch: Batch): Promise<void> {
    const backoff = new Backoff(this.backoff);
    for (let retries = 0; ; retries++) {
      try {
        await this.inner.write(batch);
        return;
      } catch (err) {
        if (err instanceof NotConnectedError || err instanceof UnsendableBatchError) throw err;
        if (this.maxRetries > 0 && retries >= this.maxRetries) throw err;
        const wait = backoff.next();
        if (wait === null) throw err;
        if (!(await sleep(wait, this.closing.signal))) throw err;
      }
    }
  }

  async close(): Promise<void> {
    this.closing.abort();
    await this.inner.close();
  }
}

/** The writer of a `kafka` output; `load` is the client library (tests pass a stand-in). */
export function kafkaWriter(
  config: KafkaOutputConfig,
  load: () => Promise<KafkaModule> = loadKafka,
): RetryingKafkaWriter {
  const franz = producerConfig(config);
  const template = kafkaRecordTemplate(config, recordTemplate(franz));
  const writer = new KafkaFranzWriter(franz, template, kafkaProduceSettings(config), load, 'kafka');
  return new RetryingKafkaWriter(writer, config.max_retries, config.backoff);
}

export const spec = defineComponent({
  name: 'kafka',
  kind: 'output',
  status: 'stable',
  categories: ['Services'],
  summary: 'Produces messages to Kafka topics (the older field set of kafka_franz).',
  description:
    "The reference's older Kafka output, mapped onto the same producer as `kafka_franz`: each message becomes a record (`topic`, `key` and `partition` interpolated; every metadata entry not excluded by `metadata.exclude_prefixes` and every `static_headers` entry as a header); a batch is one produce request, written once the brokers acknowledged it (the leader, or every in-sync replica with `ack_replicas`). Partitioners as Sarama spreads records: `fnv1a_hash` (the default) and `murmur2_hash` hash the key (a record without a key goes to a random partition), `random`, `round_robin` (per topic), `manual` (from `partition`). A record larger than `max_msg_bytes` fails its batch. A failed send is retried after each `backoff` interval until `max_retries` (0: no limit) or `backoff.max_elapsed_time` runs out, then the batch is nacked; a lost connection makes nekton reconnect with backoff and send the batch again (at-least-once: duplicates are possible).\n\nNot supported (refused by lint): `custom_topic_creation.enabled`, `sasl.token_cache`/`token_key`, `idempotent_write` without `ack_replicas`. Accepted without effect: `target_version` (checked; the client negotiates the protocol version with each broker), `rack_id`, `retry_as_batch` (a batch is always sent, and retried, whole).",
  fields,
  examples: [
    {
      title: 'Produce keyed records',
      config: `input:
  stdin: {}
output:
  kafka:
    addresses: [ localhost:9092 ]
    topic: orders
    key: \${! json("customer_id") }
    ack_replicas: true
`,
    },
  ],
  lint: (config) => [...lintKafkaOutput(config)],
  build(config, ctx): Output {
    return ctx.wrapWriter(kafkaWriter(config), {
      maxInFlight: config.max_in_flight,
      batching: config.batching,
    });
  },
});
