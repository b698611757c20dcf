// The fields of the `amqp_0_9` input, and the config type its reader receives (inferred from them).
import { type ConfigOf, field } from '../../config/spec.js';
import { tlsField } from '../fields/tls.js';
import { amqpUrlsField } from './fields.js';

const a = { advanced: true };

export const amqpInputFields = [
  amqpUrlsField([['amqp://guest:guest@127.0.0.1:5672/'], ['amqp://127.0.0.1:5672/,amqp://127.0.0.2:5672/']]),
  field.string('queue', 'The queue to consume from.'),
  field.object(
    'queue_declare',
    'Declare the queue on connect (if it exists, its settings must match).',
    [
      field.bool('enabled', 'Whether to declare the queue.', { default: false, ...a }),
      field.bool('durable', 'Whether the declared queue survives a broker restart.', {
        default: true,
        ...a,
      }),
      field.bool('auto_delete', 'Whether the declared queue is deleted once its last consumer goes.', {
        default: false,
        ...a,
      }),
      field.map(
        field.string(
          'arguments',
          'Queue arguments (`x-queue-type`, `x-max-length`, `x-message-ttl`...); numeric and boolean ones are converted.',
          { optional: true, ...a, examples: [{ 'x-queue-type': 'quorum', 'x-max-length': '1000' }] },
        ),
      ),
    ],
    { optional: true, ...a },
  ),
  field.array(
    field.object(
      'bindings_declare',
      'Bindings of the queue to exchanges, declared on connect.',
      [
        field.string('exchange', 'The exchange to bind the queue to.', { default: '', ...a }),
        field.string('key', 'The binding (routing) key.', { default: '', ...a }),
      ],
      { optional: true, ...a, examples: [[{ exchange: 'orders', key: 'created' }]] },
    ),
  ),
  field.string('consumer_tag', 'The consumer tag; empty lets the broker choose one.', { default: '' }),
  field.bool(
    'auto_ack',
    'Let the broker consider messages acknowledged as soon as they are sent: faster, but messages are lost if delivery fails.',
    { default: false, ...a },
  ),
  field.array(
    field.string(
      'nack_reject_patterns',
      'Regular expressions over the delivery error: a match rejects the message without requeueing it (it goes to the dead-letter exchange if one is set).',
      { default: [], ...a, regexp: true, examples: [['^reject me please:.+$']] },
    ),
  ),
  field.int('prefetch_count', 'The most unacknowledged messages the broker sends at a time.', {
    default: 10,
  }),
  field.int(
    'prefetch_size',
    'The most unacknowledged bytes at a time (not implemented by RabbitMQ; ignored).',
    {
      default: 0,
      ...a,
    },
  ),
  tlsField(),
] as const;

export type AmqpInputConfig = ConfigOf<typeof amqpInputFields>;
