// The `redpanda_common` output: kafka_franz's producer on the connection and producer settings of
// the top-level `redpanda` section; the output itself says only what each record is.
import { type ConfigOf, defineComponent } from '../../config/spec.js';
import type { Output } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import { type KafkaModule, loadKafka } from '../kafka/client.js';
import { isSet } from '../kafka/records.js';
import { redpandaSection } from '../kafka/redpanda_section.js';
import { fieldsNamed } from '../kafka/spec_fields.js';
import {
  type KafkaFranzOutputConfig,
  KafkaFranzWriter,
  kafkaFranzOutputFields,
  produceSettings,
  recordTemplate,
} from './kafka_franz.js';

const fields = [
  ...fieldsNamed(kafkaFranzOutputFields, [
    'topic',
    'key',
    'partition',
    'metadata',
    'timestamp',
    'timestamp_ms',
    'max_in_flight',
    'batching',
  ]),
];

export const spec = defineComponent({
  name: 'redpanda_common',
  kind: 'output',
  status: 'deprecated',
  categories: ['Services'],
  summary:
    'Produces messages to Redpanda (Kafka) topics over the connection of the top-level `redpanda` section.',
  description:
    'The kafka_franz producer, connected with the top-level `redpanda` section: its `seed_brokers`, TLS, SASL and timeouts, and its producer settings (`partitioner`, `idempotent_write`, `acks`, `compression`, `allow_auto_topic_creation`, `timeout`). Without that section (or without its `seed_brokers`) the config does not lint. Each message becomes a record as in kafka_franz; a batch counts as written only once the brokers acknowledged it, a lost connection makes nekton reconnect with backoff and send it again (at-least-once). `partition` needs `partitioner: manual` in the `redpanda` section. In streams mode the section belongs in the observability config (`-o`); a stream using this output is refused when that config has none. The reference shares one client between the section and its components; nekton opens one producer per output.',
  fields,
  examples: [
    {
      title: 'Produce over the shared connection',
      config: `redpanda:
  seed_brokers: [ localhost:9092 ]
  client_id: nekton
input:
  stdin: {}
output:
  redpanda_common:
    topic: orders
    key: \${! json("customer_id") }
`,
    },
  ],
  // Checks against the section's partitioner are made by the whole-config lint.
  lint: (config) =>
    isSet(config.timestamp) && isSet(config.timestamp_ms)
      ? ['both timestamp and timestamp_ms cannot be specified simultaneously']
      : [],
  build(config, ctx): Output {
    return ctx.wrapWriter(redpandaCommonWriter(config, ctx), {
      maxInFlight: config.max_in_flight,
      batching: config.batching,
    });
  },
});

/** The producer of a redpanda_common output: the section's connection and settings, the output's records. */
export function redpandaCommonWriter(
  config: ConfigOf<typeof fields>,
  ctx: BuildContext,
  /** The client library; tests pass a stand-in, since no broker is reachable for them. */
  load: () => Promise<KafkaModule> = loadKafka,
): KafkaFranzWriter {
  const section = redpandaSection(ctx, 'redpanda_common');
  const franz: KafkaFranzOutputConfig = { ...section, ...config, rack_id: '' };
  return new KafkaFranzWriter(franz, recordTemplate(franz), produceSettings(franz), load, 'redpanda_common');
}
