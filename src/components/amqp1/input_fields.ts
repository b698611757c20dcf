// The fields of the amqp_1 input, in the reference's order, its lint rules, and the config type
// its reader receives (inferred from them).
import { type ConfigOf, field, type RawConfigOf } from '../../config/spec.js';
import { amqp1TlsField, lintUrls, saslField, urlField, urlsField } from './fields.js';

const a = { advanced: true } as const;

export const amqp1InputFields = [
  urlField(),
  urlsField(),
  field.string(
    'source_address',
    'The address to consume from (RabbitMQ: `/amq/queue/NAME` or `/queue/NAME`).',
    {
      examples: ['/foo', 'queue:/bar', 'topic:/baz'],
    },
  ),
  field.bool(
    'azure_renew_lock',
    "Azure Service Bus only: renew a message's lock while it is processed (not supported by nekton: lint refuses it).",
    { default: false, ...a },
  ),
  field.bool(
    'read_header',
    'Add the header section as metadata: `amqp_durable`, `amqp_priority`, `amqp_ttl`, `amqp_first_acquirer`, `amqp_delivery_count`.',
    { default: false, ...a },
  ),
  field.int(
    'credit',
    'Link credit: the most messages the broker sends before earlier ones are settled (acknowledged or released).',
    { default: 64, ...a },
  ),
  amqp1TlsField(),
  saslField(),
] as const;

export type Amqp1InputConfig = ConfigOf<typeof amqp1InputFields>;

export function lintAmqp1Input(config: RawConfigOf<typeof amqp1InputFields>): string[] {
  const problems = lintUrls(config);
  if (typeof config.credit === 'number' && config.credit < 1) problems.push('credit must be at least 1');
  if (config.azure_renew_lock) problems.push('azure_renew_lock is not supported by nekton');
  return problems;
}
