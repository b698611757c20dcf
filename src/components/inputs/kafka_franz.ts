// The `kafka_franz` input: consumes topics as a member of a consumer group and commits each
// partition's offset only once every message up to it was delivered (at-least-once). The reader
// is in ../kafka/franz_reader.ts, the fields in ../kafka/franz_input_fields.ts.
import { defineComponent } from '../../config/spec.js';
import { isNoopPolicy } from '../../engine/batching.js';
import type { Input } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import { BatchedInput } from '../brokers/batched_input.js';
import { batchingEnabled } from '../fields/batching.js';
import { loadKafka } from '../kafka/client.js';
import { byteSizeProblems, saslProblems } from '../kafka/fields.js';
import { type KafkaFranzInputConfig, kafkaFranzInputFields } from '../kafka/franz_input_fields.js';
import { KafkaFranzReader } from '../kafka/franz_reader.js';
import { lintKafkaFranzInput, topicSelection } from '../kafka/franz_topics.js';

/** The byte sizes of the consumer fields, checked by lint (the reader turns them into numbers). */
export const FETCH_SIZES = ['fetch_max_bytes', 'fetch_min_bytes', 'fetch_max_partition_bytes'] as const;

export const spec = defineComponent({
  name: 'kafka_franz',
  kind: 'input',
  status: 'deprecated',
  categories: ['Services'],
  summary: 'Consumes Kafka topics as a member of a consumer group, committing offsets only after delivery.',
  description:
    "Each partition's offset is committed (every `commit_period`) only up to the last message that, with every earlier one, was delivered; at most `checkpoint_limit` messages per partition are in flight. A nacked message is delivered again (before anything new) and its partition is not committed past it until it is delivered; with `auto_replay_nacks: false` it is dropped and committed past, as in the reference, and a warning names its topic, partition and offset. What was not committed when nekton stops or loses the connection is consumed again. Metadata: `kafka_key`, `kafka_topic`, `kafka_partition`, `kafka_offset`, `kafka_timestamp_unix`, `kafka_timestamp_ms`, `kafka_tombstone_message` and every record header. An unreachable broker fails the connection with the broker addresses and the reason: `/ready` answers 503 and nekton retries with backoff. The Kafka client library is loaded only when this component is used. Explicit topic partitions (`foo:0`) are not supported. SASL: PLAIN, SCRAM-SHA-256/512 and OAUTHBEARER; `rack_id`, `tcp` keep-alive, `conn_idle_timeout`, `topic_lag_refresh_period` and `timely_nacks_maximum_wait` are accepted but have no effect.",
  fields: kafkaFranzInputFields(),
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
  lint: (config) => [
    ...lintKafkaFranzInput(config),
    ...saslProblems(config.sasl),
    ...byteSizeProblems(config, FETCH_SIZES),
  ],
  build: (config, ctx): Promise<Input> => buildConsumerInput(config, ctx, 'kafka_franz'),
});

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
