// The `redpanda` output: kafka_franz's producer and fields (max_in_flight 256 by default).
import { type ConfigOf, defineComponent, field } from '../../config/spec.js';
import type { Output } from '../../engine/component.js';
import { refuseProblems } from '../fields/config_problems.js';
import { loadKafka } from '../kafka/client.js';
import { kafkaConnectionFields, saslProblems } from '../kafka/fields.js';
import { withSectionConnection } from '../kafka/redpanda_section.js';
import { fieldsNamed, PRODUCER_SETTINGS, withOptionalSeedBrokers } from '../kafka/spec_fields.js';
import { tracingMapField } from '../nats/connection.js';
import {
  spec as franzSpec,
  type KafkaFranzOutputConfig,
  KafkaFranzWriter,
  kafkaFranzOutputFields,
  lintKafkaFranzOutput,
  produceSettings,
  recordTemplate,
} from './kafka_franz.js';

const fields = [
  ...withOptionalSeedBrokers(kafkaConnectionFields()),
  ...fieldsNamed(kafkaFranzOutputFields, [
    'topic',
    'key',
    'partition',
    'metadata',
    'timestamp',
    'timestamp_ms',
  ]),
  field.int('max_in_flight', 'How many batches may be produced at once.', { default: 256 }),
  ...fieldsNamed(kafkaFranzOutputFields, ['batching']),
  tracingMapField('inject_tracing_map'),
  ...fieldsNamed(kafkaFranzOutputFields, PRODUCER_SETTINGS),
];

/** The parsed config of a `redpanda` output. */
export type RedpandaOutputConfig = ConfigOf<typeof fields>;

/** What lint (and, for a component built through the API, build) refuses; reads fields the same written and parsed. */
export function lintRedpandaOutput(
  config: Pick<RedpandaOutputConfig, 'seed_brokers'> & Parameters<typeof lintKafkaFranzOutput>[0],
): string[] {
  // Without seed_brokers the top-level redpanda section connects it (src/config/redpanda_section_lint.ts).
  return lintKafkaFranzOutput(config);
}

function franzConfig(config: RedpandaOutputConfig): KafkaFranzOutputConfig {
  return { ...config, seed_brokers: config.seed_brokers ?? [], rack_id: '' };
}

export const spec = defineComponent({
  name: 'redpanda',
  kind: 'output',
  status: 'stable',
  categories: ['Services'],
  summary:
    'Produces messages to Kafka (Redpanda) topics; a batch counts as written once the brokers acknowledged it.',
  description: `The kafka_franz producer with the redpanda field set: ${franzSpec.description} Without \`seed_brokers\` it connects as the top-level \`redpanda\` section says (its seed brokers, TLS, SASL and timeouts); \`inject_tracing_map\` is refused by lint (traces travel in the \`traceparent\` metadata).`,
  fields,
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
  lint: (config) => [...lintRedpandaOutput(config), ...saslProblems(config.sasl)],
  build(config, ctx): Output {
    refuseProblems(lintRedpandaOutput(config), 'redpanda: ');
    const franz = franzConfig(withSectionConnection(config, ctx, 'output'));
    return ctx.wrapWriter(
      new KafkaFranzWriter(franz, recordTemplate(franz), produceSettings(franz), loadKafka, 'redpanda'),
      {
        maxInFlight: config.max_in_flight,
        batching: config.batching,
      },
    );
  },
});
