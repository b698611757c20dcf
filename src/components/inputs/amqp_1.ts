// The `amqp_1` input: consumes an address of an AMQP 1.0 broker (RabbitMQ with its AMQP 1.0
// plugin, ActiveMQ, Artemis, Azure Service Bus...). The reader is in ../amqp1/reader.ts, its
// fields in ../amqp1/input_fields.ts.
import { defineComponent } from '../../config/spec.js';
import type { Input } from '../../engine/component.js';
import { connectionName } from '../amqp/connection.js';
import { brokerUrls } from '../amqp1/fields.js';
import { amqp1InputFields, lintAmqp1Input } from '../amqp1/input_fields.js';
import { Amqp1Reader } from '../amqp1/reader.js';

export const spec = defineComponent({
  name: 'amqp_1',
  kind: 'input',
  status: 'stable',
  categories: ['Services'],
  summary: 'Reads messages from an AMQP 1.0 broker.',
  description:
    'Each message is settled once the output delivered it: `accepted` when it was written, `released` when it failed, so the broker delivers it again (`released` rather than `modified`: RabbitMQ ends the session on a `modified` outcome). `credit` is the link credit: the most messages on their way before earlier ones are settled. A lost connection is re-established with backoff; the broker then redelivers the unsettled messages.\n\n' +
    'Metadata: `amqp_to`, `amqp_content_type`, `amqp_content_encoding`, `amqp_creation_time`, `amqp_message_id`, `amqp_correlation_id`, `amqp_subject`, `amqp_reply_to`, `amqp_group_id`, `amqp_group_sequence`, `amqp_reply_to_group_id`, `amqp_user_id`, `amqp_absolute_expiry_time` (when set), every string message annotation (dashes become underscores) and, with `read_header`, `amqp_durable`, `amqp_priority`, `amqp_ttl`, `amqp_first_acquirer`, `amqp_delivery_count`. Values are strings.\n\n' +
    'The body is the first data section, or a string value; other bodies (sequences, non-string values) read as empty. A user and password in the URL are sent with SASL PLAIN unless `sasl` says otherwise. TLS is used for `amqps://` URLs and whenever `tls.enabled` is set. `azure_renew_lock` is not supported (lint refuses it).',
  fields: amqp1InputFields,
  lint: lintAmqp1Input,
  examples: [
    {
      title: 'Consume a RabbitMQ queue over AMQP 1.0',
      config: `input:
  amqp_1:
    urls: [ amqp://guest:guest@127.0.0.1:5672/ ]
    source_address: /amq/queue/orders
    credit: 32
output:
  stdout: {}
`,
    },
  ],
  build(config, ctx): Input {
    const reader = new Amqp1Reader({ ...config, urls: brokerUrls(config) }, ctx.logger, connectionName(ctx));
    return ctx.wrapReader(reader);
  },
});
