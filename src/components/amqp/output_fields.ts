// The fields of the `amqp_0_9` output, and the config type its writer receives (inferred from
// them). The interpolated fields are listed here once; the writer finds them through `interpolated`.
import type { Interpolation } from '../../bloblang/index.js';
import { type ConfigOf, field } from '../../config/spec.js';
import { tlsField } from '../fields/tls.js';
import { amqpUrlsField } from './fields.js';

const a = { advanced: true };
const ai = { advanced: true, interpolated: true };

export const amqpOutputFields = [
  amqpUrlsField([['amqp://guest:guest@127.0.0.1:5672/']]),
  field.interpolated('exchange', 'The exchange to publish to (`""` is the default exchange).'),
  field.object(
    'exchange_declare',
    'Declare the exchange on connect (if it exists, its settings must match).',
    [
      field.bool('enabled', 'Whether to declare the exchange.', { default: false, ...a }),
      field.string('type', 'The exchange type.', {
        default: 'direct',
        ...a,
        options: ['direct', 'fanout', 'topic', 'headers', 'x-custom'],
      }),
      field.bool('durable', 'Whether the declared exchange survives a broker restart.', {
        default: true,
        ...a,
      }),
      field.map(
        field.string('arguments', 'Exchange arguments, e.g. `alternate-exchange`.', {
          optional: true,
          ...a,
          examples: [{ 'alternate-exchange': 'my-ae' }],
        }),
      ),
    ],
    { optional: true, ...a },
  ),
  field.interpolated('key', 'The routing key of each message.', {
    default: '',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation, not a JS template
    examples: ['orders.${! json("kind") }'],
  }),
  field.interpolated('type', 'The message type property.', { default: '' }),
  field.interpolated('content_type', 'The content type property.', {
    default: 'application/octet-stream',
    ...ai,
  }),
  field.interpolated('content_encoding', 'The content encoding property.', { default: '', ...ai }),
  field.interpolated('correlation_id', 'The correlation id property.', { default: '', ...ai }),
  field.interpolated('reply_to', 'The reply-to property.', { default: '', ...ai }),
  field.interpolated('expiration', 'The per-message TTL in milliseconds, as a string.', {
    default: '',
    ...ai,
  }),
  field.interpolated('message_id', 'The message id property.', { default: '', ...ai }),
  field.interpolated('user_id', 'The user id property (RabbitMQ checks it against the connection user).', {
    default: '',
    ...ai,
  }),
  field.interpolated('app_id', 'The application id property.', { default: '', ...ai }),
  field.object('metadata', 'Which metadata is sent as headers.', [
    field.array(
      field.string('exclude_prefixes', 'Metadata keys starting with any of these are not sent.', {
        default: [],
      }),
    ),
  ]),
  field.interpolated('priority', 'The message priority, 0 to 9 (empty: none).', {
    default: '',
    ...ai,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation, not a JS template
    examples: ['0', '${! meta("amqp_priority") }'],
  }),
  field.int('max_in_flight', 'The most batches being published at once.', { default: 64 }),
  field.bool('persistent', 'Publish persistent messages (delivery mode 2) that survive a broker restart.', {
    default: false,
    ...a,
  }),
  field.bool('mandatory', 'Fail a message the broker cannot route to any queue.', {
    default: false,
    ...a,
  }),
  field.bool('immediate', 'Set the immediate flag (not supported by RabbitMQ).', { default: false, ...a }),
  field.duration(
    'timeout',
    'How long to wait for the broker to confirm a batch before failing it; empty waits indefinitely.',
    { default: '', ...a, examples: ['10s'] },
  ),
  tlsField(),
] as const;

export type AmqpOutputConfig = ConfigOf<typeof amqpOutputFields>;

/** The names of the interpolated fields (exchange, key and the message properties). */
export type TemplateName = {
  [K in keyof AmqpOutputConfig]: AmqpOutputConfig[K] extends Interpolation ? K : never;
}[keyof AmqpOutputConfig];

export const templateNames = amqpOutputFields
  .filter((f) => f.interpolated)
  .map((f) => f.name) as TemplateName[];
