// The `amqp_0_9` input: consumes a queue of an AMQP 0.9.1 broker (RabbitMQ), acknowledging each
// message only once it was delivered, and nacking (requeueing) it when delivery failed. The reader
// is in ../amqp/reader.ts, its fields in ../amqp/input_fields.ts.
import { defineComponent } from '../../config/spec.js';
import type { Input } from '../../engine/component.js';
import { connectionName } from '../amqp/connection.js';
import { lintAmqpUrls } from '../amqp/fields.js';
import { amqpInputFields } from '../amqp/input_fields.js';
import { AmqpReader } from '../amqp/reader.js';

export const spec = defineComponent({
  name: 'amqp_0_9',
  kind: 'input',
  status: 'stable',
  categories: ['Services'],
  summary: 'Consumes a queue of an AMQP 0.9.1 broker such as RabbitMQ.',
  description:
    'Each message is acknowledged once it was delivered by the output; when delivery fails it is nacked and requeued (or dropped/dead-lettered when the error matches `nack_reject_patterns`). A lost connection is re-established with backoff; unacknowledged messages are then redelivered by the broker with `amqp_redelivered` set.\n\n' +
    'Metadata: `amqp_content_type`, `amqp_content_encoding`, `amqp_delivery_mode`, `amqp_priority`, `amqp_correlation_id`, `amqp_reply_to`, `amqp_expiration`, `amqp_message_id`, `amqp_timestamp`, `amqp_type`, `amqp_user_id`, `amqp_app_id`, `amqp_consumer_tag`, `amqp_delivery_tag`, `amqp_redelivered`, `amqp_exchange`, `amqp_routing_key`, and every message header (dashes become underscores; nested tables become `parent_child` keys). Values are strings.\n\n' +
    'TLS is used for `amqps://` URLs, and for every URL when `tls.enabled` is set. `prefetch_size` is accepted but ignored: RabbitMQ does not implement it.',
  fields: amqpInputFields,
  lint: lintAmqpUrls,
  examples: [
    {
      title: 'Consume a durable queue bound to an exchange',
      config: `input:
  amqp_0_9:
    urls: [ amqp://guest:guest@127.0.0.1:5672/ ]
    queue: orders
    queue_declare:
      enabled: true
      durable: true
    bindings_declare:
      - exchange: amq.direct
        key: orders
    prefetch_count: 50
output:
  stdout: {}
`,
    },
  ],
  build(config, ctx): Input {
    return ctx.wrapReader(new AmqpReader(config, ctx.logger, connectionName(ctx)));
  },
});
