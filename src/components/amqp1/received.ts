// An AMQP 1.0 message as rhea decoded it, turned into a nekton message: the body (first data
// section, or a string value) and the reference's `amqp_*` metadata, all as strings.
import type { Message as RheaMessage } from 'rhea';
import { formatDuration } from '../../config/duration.js';
import { Message } from '../../message/message.js';

const DATA_SECTION = 0x75;

/** The properties section, as the reference names them in metadata. */
const PROPERTIES: [string, string][] = [
  ['to', 'amqp_to'],
  ['content_type', 'amqp_content_type'],
  ['content_encoding', 'amqp_content_encoding'],
  ['creation_time', 'amqp_creation_time'],
  ['message_id', 'amqp_message_id'],
  ['correlation_id', 'amqp_correlation_id'],
  ['subject', 'amqp_subject'],
  ['reply_to', 'amqp_reply_to'],
  ['group_id', 'amqp_group_id'],
  ['group_sequence', 'amqp_group_sequence'],
  ['reply_to_group_id', 'amqp_reply_to_group_id'],
  ['user_id', 'amqp_user_id'],
  ['absolute_expiry_time', 'amqp_absolute_expiry_time'],
];

/** Builds the nekton message; `readHeader` adds the header section (`read_header`). */
export function receivedMessage(m: RheaMessage, readHeader: boolean): Message {
  const out = new Message(bodyBytes(m.body));
  for (const [property, key] of PROPERTIES)
    setMeta(out, key, (m as unknown as Record<string, unknown>)[property], property);
  if (readHeader) {
    // rhea flattens the header into the message, its fields absent when at their default.
    setMeta(out, 'amqp_durable', m.durable ?? false);
    setMeta(out, 'amqp_priority', m.priority ?? 4);
    out.setMeta('amqp_ttl', formatDuration((Number(m.ttl) || 0) * 1e6));
    setMeta(out, 'amqp_first_acquirer', m.first_acquirer ?? false);
    setMeta(out, 'amqp_delivery_count', m.delivery_count ?? 0);
  }
  // Only string annotations become metadata (the reference's rule), dashes as underscores.
  const annotations = m.message_annotations as Record<string, unknown> | undefined;
  if (annotations)
    for (const [k, v] of Object.entries(annotations)) if (typeof v === 'string') setMeta(out, k, v);
  return out;
}

/** The first data section, or a string (or binary) value; anything else is an empty body. */
function bodyBytes(body: unknown): Uint8Array {
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return body;
  const section = body as { typecode?: number; content?: unknown; multiple?: boolean } | undefined;
  if (section?.typecode === DATA_SECTION) {
    const content = section.multiple ? (section.content as unknown[])[0] : section.content;
    if (content instanceof Uint8Array) return content;
  }
  return new Uint8Array(0);
}

/** A value as metadata text, the way the reference formats each AMQP type; empty values are skipped. */
function setMeta(out: Message, key: string, value: unknown, property?: string): void {
  const text = metaText(value, property);
  if (text !== '') out.setMeta(key.replaceAll('-', '_'), text);
}

function metaText(value: unknown, property?: string): string {
  if (value === undefined || value === null) return '';
  if (value instanceof Date) return value.toISOString().replace(/\.\d{3}Z$/, 'Z');
  if (typeof value === 'number' && (property === 'creation_time' || property === 'absolute_expiry_time'))
    return new Date(value).toISOString().replace(/\.\d{3}Z$/, 'Z');
  if (Buffer.isBuffer(value)) {
    // rhea decodes a UUID id as its 16 bytes, as it does a binary one: ids read as UUIDs.
    if (value.length === 16 && (property === 'message_id' || property === 'correlation_id'))
      return uuidText(value);
    return value.toString('utf8');
  }
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  return String(value);
}

function uuidText(b: Buffer): string {
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
