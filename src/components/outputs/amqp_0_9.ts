// The `amqp_0_9` output: publishes to an exchange of an AMQP 0.9.1 broker (RabbitMQ) on a
// confirm channel. The writer is in ../amqp/writer.ts, its fields in ../amqp/output_fields.ts.
import { defineComponent } from '../../config/spec.js';
import type { Output } from '../../engine/component.js';
import { connectionName } from '../amqp/connection.js';
import { lintAmqpUrls } from '../amqp/fields.js';
import { amqpOutputFields } from '../amqp/output_fields.js';
import { AmqpWriter } from '../amqp/writer.js';

export const spec = defineComponent({
  name: 'amqp_0_9',
  kind: 'output',
  status: 'stable',
  categories: ['Services'],
  summary: 'Publishes messages to an exchange of an AMQP 0.9.1 broker such as RabbitMQ.',
  description:
    'Publishes on a confirm channel: a batch is written once the broker has confirmed every message of it, and a broker nack, a returned `mandatory` message or a `timeout` fails the batch so the input nacks it (or a `retry`/`fallback` takes over). A lost connection is re-established with backoff and the batch published again.\n\n' +
    'Message metadata is sent as headers, except keys starting with one of `metadata.exclude_prefixes`. `immediate` is not supported by RabbitMQ 3+: it closes the connection.',
  fields: amqpOutputFields,
  lint: lintAmqpUrls,
  examples: [
    {
      title: 'Publish to a topic exchange with a routing key from the message',
      config: `input:
  generate:
    count: 3
    interval: ''
    mapping: 'root = {"kind": "created", "id": counter()}'
output:
  amqp_0_9:
    urls: [ amqp://guest:guest@127.0.0.1:5672/ ]
    exchange: orders
    exchange_declare:
      enabled: true
      type: topic
    key: 'orders.\${! json("kind") }'
    persistent: true
    timeout: 10s
`,
    },
  ],
  build(config, ctx): Output {
    const writer = new AmqpWriter(config, connectionName(ctx));
    return ctx.wrapWriter(writer, { maxInFlight: config.max_in_flight });
  },
});
