// The fields of the amqp_1 output, in the reference's order, its lint rules, and the config type
// its writer receives (inferred from them).
import { type ConfigOf, field, type RawConfigOf } from '../../config/spec.js';
import { amqp1TlsField, lintUrls, saslField, urlField, urlsField } from './fields.js';

const a = { advanced: true } as const;
const ai = { advanced: true, optional: true } as const;

/** The `message_properties_*` fields: the property each sets, in the reference's order. */
export const MESSAGE_PROPERTY_FIELDS = {
  message_properties_to: 'to',
  message_properties_message_id: 'message_id',
  message_properties_correlation_id: 'correlation_id',
  message_properties_subject: 'subject',
  message_properties_reply_to: 'reply_to',
  message_properties_group_id: 'group_id',
  message_properties_group_sequence: 'group_sequence',
  message_properties_reply_to_group_id: 'reply_to_group_id',
  message_properties_user_id: 'user_id',
  message_properties_content_type: 'content_type',
  message_properties_content_encoding: 'content_encoding',
} as const;

export type PropertyField = keyof typeof MESSAGE_PROPERTY_FIELDS;

const property = (name: PropertyField, description: string, examples?: string[]) =>
  field.interpolated(name, description, { ...ai, ...(examples ? { examples } : {}) });

export const amqp1OutputFields = [
  urlField(),
  urlsField(),
  field.string(
    'target_address',
    'The address to send to (RabbitMQ: `/amq/queue/NAME`, `/queue/NAME`, `/exchange/NAME/KEY`). Empty: the anonymous terminus, each message naming its destination in `message_properties_to`.',
    { default: '', examples: ['/foo', 'queue:/bar', 'topic:/baz', ''] },
  ),
  field.int(
    'max_in_flight',
    'The most messages being sent (waiting for the broker to settle them) at once.',
    {
      default: 64,
    },
  ),
  amqp1TlsField(),
  field.mapping(
    'application_properties_map',
    'A Bloblang mapping whose resulting object becomes the application-properties of each message.',
    { ...ai, examples: ['root.source = "nekton"\nroot.kind = this.kind'] },
  ),
  saslField(),
  field.object('metadata', 'Which metadata is sent as message annotations.', [
    field.array(
      field.string('exclude_prefixes', 'Metadata keys starting with any of these are not sent.', {
        default: [],
      }),
    ),
  ]),
  field.enum(
    'content_type',
    'The body as an opaque binary data section, or (`string`) as an AMQP string value, e.g. for JSON read by other clients as text.',
    ['opaque_binary', 'string'],
    { default: 'opaque_binary', ...a },
  ),
  field.bool('persistent', 'Mark each message durable, so a broker keeps it across a restart.', {
    default: false,
    ...a,
  }),
  field.array(
    field.string('target_capabilities', 'Capabilities asked of the target (queue, topic, shared...).', {
      ...ai,
      examples: [['queue']],
    }),
  ),
  property('message_properties_to', 'The to property: the destination when `target_address` is empty.', [
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation, not a JS template
    '${! meta("target_address") }',
  ]),
  property(
    'message_properties_message_id',
    'The message-id property: a UUID, a whole number (sent as ulong) or else a string.',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation, not a JS template
    ['${! uuid_v4() }', '${! meta("amqp_message_id") }'],
  ),
  property(
    'message_properties_correlation_id',
    'The correlation-id property: a UUID, a whole number (sent as ulong) or else a string.',
  ),
  property('message_properties_subject', 'The subject property.'),
  property('message_properties_reply_to', 'The reply-to property.'),
  property('message_properties_group_id', 'The group-id property.'),
  property('message_properties_group_sequence', 'The group-sequence property, a uint32.'),
  property('message_properties_reply_to_group_id', 'The reply-to-group-id property.'),
  property(
    'message_properties_user_id',
    'The user-id property (brokers may check it against the connection user).',
  ),
  property('message_properties_content_type', 'The content-type property.', ['application/json']),
  property('message_properties_content_encoding', 'The content-encoding property.'),
] as const;

export type Amqp1OutputConfig = ConfigOf<typeof amqp1OutputFields>;

export function lintAmqp1Output(config: RawConfigOf<typeof amqp1OutputFields>): string[] {
  const problems = lintUrls(config);
  if (problems.length === 0 && !config.target_address && config.message_properties_to === undefined)
    problems.push(
      "when 'target_address' is empty, 'message_properties_to' must be set to specify per-message destinations",
    );
  return problems;
}
