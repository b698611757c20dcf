// The `redpanda` output: kafka_franz's producer and fields (max_in_flight 256 by default).
import { type ComponentSpec, field } from '../../config/spec.js';
import type { Output } from '../../engine/component.js';
import { ConfigError } from '../../engine/errors.js';
import { loadKafka } from '../kafka/client.js';
import { kafkaConnectionFields } from '../kafka/fields.js';
import { fieldsNamed, withOptionalSeedBrokers } from '../kafka/spec_fields.js';
import { tracingMapField } from '../nats/connection.js';
import {
  spec as franzSpec,
  type KafkaFranzOutputConfig,
  KafkaFranzWriter,
  lintKafkaFranzOutput,
  produceSettings,
  recordTemplate,
} from './kafka_franz.js';

export interface RedpandaOutputConfig extends Omit<KafkaFranzOutputConfig, 'seed_brokers' | 'rack_id'> {
  seed_brokers?: string[];
  inject_tracing_map?: string;
}

export function lintRedpandaOutput(config: RedpandaOutputConfig): string[] {
  const problems: string[] = [];
  if ((config.seed_brokers ?? []).length === 0)
    problems.push(
      'seed_brokers is required by nekton (it does not take them from the top-level redpanda section)',
    );
  return [...problems, ...lintKafkaFranzOutput(franzConfig(config))];
}

function franzConfig(config: RedpandaOutputConfig): KafkaFranzOutputConfig {
  return { ...config, seed_brokers: config.seed_brokers ?? [] };
}

export const spec: ComponentSpec<RedpandaOutputConfig, Output> = {
  name: 'redpanda',
  kind: 'output',
  status: 'stable',
  categories: ['Services'],
  summary:
    'Produces messages to Kafka (Redpanda) topics; a batch counts as written once the brokers acknowledged it.',
  description: `The kafka_franz producer with the redpanda field set: ${franzSpec.description} \`seed_brokers\` is required by nekton; \`inject_tracing_map\` is accepted without effect.`,
  fields: [
    ...withOptionalSeedBrokers(kafkaConnectionFields()),
    ...fieldsNamed(franzSpec, ['topic', 'key', 'partition', 'metadata', 'timestamp', 'timestamp_ms']),
    field.int('max_in_flight', 'How many batches may be produced at once.', { default: 256 }),
    ...fieldsNamed(franzSpec, ['batching']),
    tracingMapField('inject_tracing_map'),
    ...fieldsNamed(franzSpec, [
      'partitioner',
      'idempotent_write',
      'acks',
      'compression',
      'allow_auto_topic_creation',
      'timeout',
      'max_message_bytes',
      'broker_write_max_bytes',
      'max_buffered_records',
      'max_buffered_bytes',
      'max_in_flight_requests',
      'record_retries',
      'record_delivery_timeout',
    ]),
  ],
  examples: [
    {
      title: 'Produce keyed records',
      config: `input:
  stdin: {}
output:
  redpanda:
    seed_brokers: [ localhost:9092 ]
    topic: orders
    key: \${! json("customer_id") }
`,
    },
  ],
  lint: lintRedpandaOutput,
  build(config, ctx) {
    const problem = lintRedpandaOutput(config)[0];
    if (problem) throw new ConfigError(`redpanda: ${problem}`);
    const franz = franzConfig(config);
    const template = recordTemplate(franz, (text, name) => ctx.interpolation(text, name));
    return ctx.wrapWriter(
      new KafkaFranzWriter(franz, template, produceSettings(franz), loadKafka, 'redpanda'),
      {
        maxInFlight: config.max_in_flight,
        batching: config.batching,
      },
    );
  },
};
