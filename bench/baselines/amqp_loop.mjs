// Hand-written baseline for W4 (AMQP): consume the source queue with prefetch BATCH, apply the same ten
// assignments, publish each result to the target queue on a confirm channel, and ack a batch of
// sources once its publishes are confirmed, until COUNT messages moved.
// argv: url source target count batch [headers|plain]. `headers` forwards what the source message
// says about itself as headers, the same keys and values nekton's amqp_0_9 input puts in metadata
// and its output sends by default (as the reference does): RabbitMQ's work per message grows with
// them, so the two sides must send the same. `plain` sends none.
import amqp from 'amqplib';
import { mapDocument } from './doc_mapping.mjs';

const [url, source, target, countText, batchText, mode = 'headers'] = process.argv.slice(2);

/** The source delivery's properties and fields, keyed as the reference's metadata, empty ones left out. */
function deliveryHeaders(msg) {
  const p = msg.properties;
  const f = msg.fields;
  const headers = { ...p.headers };
  const add = (key, value) => {
    if (value !== undefined && value !== null && String(value) !== '') headers[key] = String(value);
  };
  add('amqp_content_type', p.contentType);
  add('amqp_content_encoding', p.contentEncoding);
  add('amqp_delivery_mode', p.deliveryMode || undefined);
  add('amqp_priority', p.priority ?? 0);
  add('amqp_correlation_id', p.correlationId);
  add('amqp_reply_to', p.replyTo);
  add('amqp_expiration', p.expiration);
  add('amqp_message_id', p.messageId);
  add('amqp_timestamp', p.timestamp || undefined);
  add('amqp_type', p.type);
  add('amqp_user_id', p.userId);
  add('amqp_app_id', p.appId);
  add('amqp_consumer_tag', f.consumerTag);
  add('amqp_delivery_tag', f.deliveryTag);
  add('amqp_redelivered', f.redelivered);
  add('amqp_exchange', f.exchange);
  add('amqp_routing_key', f.routingKey);
  return headers;
}
const count = Number(countText);
const batch = Number(batchText);
const connection = await amqp.connect(url);
const channel = await connection.createConfirmChannel();
await channel.prefetch(batch);
let moved = 0;
let pending = [];
let flushing = Promise.resolve();
const done = new Promise((resolve) => {
  const flush = async () => {
    const msgs = pending;
    pending = [];
    if (msgs.length === 0) return;
    await channel.waitForConfirms();
    channel.ack(msgs[msgs.length - 1], true);
    moved += msgs.length;
    if (moved >= count) resolve();
  };
  let timer = null;
  channel.consume(source, (msg) => {
    const out = mapDocument(JSON.parse(msg.content.toString('utf8')));
    const options = { contentType: 'application/json' };
    if (mode === 'headers') options.headers = deliveryHeaders(msg);
    channel.publish('', target, Buffer.from(JSON.stringify(out)), options);
    pending.push(msg);
    if (pending.length >= batch) {
      clearTimeout(timer);
      flushing = flushing.then(flush);
    } else {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (pending.length > 0) flushing = flushing.then(flush);
      }, 5);
    }
  });
});
await done;
await channel.close();
await connection.close();
