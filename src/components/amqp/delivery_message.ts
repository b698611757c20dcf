// An AMQP delivery as a message: its properties and headers become metadata, as the reference names them.
import type { ConsumeMessage } from 'amqplib';
import { Message } from '../../message/message.js';

/** Header values as the reference writes them into metadata: strings, nested tables flattened into `parent_child` keys. */
function setHeaderMeta(msg: Message, key: string, value: unknown): void {
  const metaKey = key.replaceAll('-', '_');
  let text: string;
  if (value === null || value === undefined) return;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    text = String(value);
  else if (Buffer.isBuffer(value)) text = value.toString('utf8');
  else if (Array.isArray(value)) {
    value.forEach((v, i) => {
      setHeaderMeta(msg, `${metaKey}_${i}`, v);
    });
    return;
  } else if (typeof value === 'object') {
    const tagged = value as { '!'?: string; value?: unknown };
    if (tagged['!'] === 'timestamp')
      text = new Date(Number(tagged.value) * 1000).toISOString().replace('.000Z', 'Z');
    else if (tagged['!'] === 'decimal') {
      const { places, digits } = tagged.value as { places: number; digits: number };
      const s = String(digits).padStart(places + 1, '0');
      text = places > 0 ? `${s.slice(0, s.length - places)}.${s.slice(s.length - places)}` : s;
    } else {
      for (const [k, v] of Object.entries(value)) setHeaderMeta(msg, `${metaKey}_${k}`, v);
      return;
    }
  } else return;
  if (text !== '') msg.setMeta(metaKey, text);
}

function setMeta(msg: Message, key: string, value: string | number | boolean | undefined): void {
  if (value === undefined) return;
  const text = String(value);
  if (text !== '') msg.setMeta(key, text);
}

export function deliveryToMessage(delivery: ConsumeMessage): Message {
  const msg = new Message(delivery.content);
  const p = delivery.properties;
  const f = delivery.fields;
  for (const [k, v] of Object.entries(p.headers ?? {})) setHeaderMeta(msg, k, v);
  setMeta(msg, 'amqp_content_type', p.contentType);
  setMeta(msg, 'amqp_content_encoding', p.contentEncoding);
  if (p.deliveryMode) setMeta(msg, 'amqp_delivery_mode', p.deliveryMode);
  // The reference's client reports an absent priority as 0.
  setMeta(msg, 'amqp_priority', p.priority ?? 0);
  setMeta(msg, 'amqp_correlation_id', p.correlationId);
  setMeta(msg, 'amqp_reply_to', p.replyTo);
  setMeta(msg, 'amqp_expiration', p.expiration);
  setMeta(msg, 'amqp_message_id', p.messageId);
  if (p.timestamp) setMeta(msg, 'amqp_timestamp', p.timestamp);
  setMeta(msg, 'amqp_type', p.type);
  setMeta(msg, 'amqp_user_id', p.userId);
  setMeta(msg, 'amqp_app_id', p.appId);
  setMeta(msg, 'amqp_consumer_tag', f.consumerTag);
  setMeta(msg, 'amqp_delivery_tag', f.deliveryTag);
  setMeta(msg, 'amqp_redelivered', f.redelivered);
  setMeta(msg, 'amqp_exchange', f.exchange);
  setMeta(msg, 'amqp_routing_key', f.routingKey);
  return msg;
}
