// Hand-written baseline for W4 (AMQP): consume the source queue with prefetch BATCH, apply the same ten
// assignments, publish each result to the target queue on a confirm channel, and ack a batch of
// sources once its publishes are confirmed, until COUNT messages moved. argv: url source target count batch.
import amqp from 'amqplib';
import { mapDocument } from './doc_mapping.mjs';

const [url, source, target, countText, batchText] = process.argv.slice(2);
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
    channel.publish('', target, Buffer.from(JSON.stringify(out)), { contentType: 'application/json' });
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
