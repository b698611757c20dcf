// The `amqp_1` output: sends to an address of an AMQP 1.0 broker, a batch written once the
// broker accepted every message of it. The writer is in ../amqp1/writer.ts, its fields in
// ../amqp1/output_fields.ts.
import { defineComponent } from '../../config/spec.js';
import type { Output } from '../../engine/component.js';
import { connectionName } from '../amqp/connection.js';
import { brokerUrls } from '../amqp1/fields.js';
import { amqp1OutputFields, lintAmqp1Output } from '../amqp1/output_fields.js';
import { Amqp1Writer } from '../amqp1/writer.js';

export const spec = defineComponent({
  name: 'amqp_1',
  kind: 'output',
  status: 'stable',
  categories: ['Services'],
  summary: 'Sends messages to an AMQP 1.0 broker.',
  description:
    "Each message is sent unsettled and the batch is written only once the broker settled every message of it as `accepted`; a `rejected`, `released` or `modified` outcome fails the batch, so the input nacks it (or a `retry`/`fallback` takes over), as does the broker ending the link over a message (e.g. RabbitMQ refusing a `user_id` that is not the connection's). A lost connection is re-established with backoff and the batch sent again.\n\n" +
    'Message metadata is sent as message annotations, except keys starting with one of `metadata.exclude_prefixes`. `application_properties_map` sets the application-properties, `message_properties_*` the properties section. With an empty `target_address` each message goes to its `message_properties_to` (the anonymous terminus; RabbitMQ 3 does not support it).',
  fields: amqp1OutputFields,
  lint: lintAmqp1Output,
  examples: [
    {
      title: 'Send JSON to a RabbitMQ queue over AMQP 1.0',
      config: `input:
  generate:
    count: 3
    interval: ''
    mapping: 'root = {"kind": "created", "id": counter()}'
output:
  amqp_1:
    urls: [ amqp://guest:guest@127.0.0.1:5672/ ]
    target_address: /amq/queue/orders
    persistent: true
    message_properties_content_type: application/json
    application_properties_map: 'root.kind = this.kind'
`,
    },
  ],
  build(config, ctx): Output {
    const writer = new Amqp1Writer({ ...config, urls: brokerUrls(config) }, connectionName(ctx));
    return ctx.wrapWriter(writer, { maxInFlight: config.max_in_flight });
  },
});
