// Hand-written baseline for W4 (Redis): XREADGROUP batches of BATCH from the source stream, apply the
// same ten assignments, XADD the results to the target stream in one pipeline, XACK the batch, until
// COUNT messages moved. argv: url source target group count batch.
import { createClient } from '@redis/client';
import { mapDocument } from './doc_mapping.mjs';

const [url, source, target, group, countText, batchText] = process.argv.slice(2);
const count = Number(countText);
const batch = Number(batchText);
const client = createClient({ url });
await client.connect();
await client.xGroupCreate(source, group, '0', { MKSTREAM: true }).catch(() => undefined);
let moved = 0;
while (moved < count) {
  const reply = await client.xReadGroup(
    group,
    'baseline',
    { key: source, id: '>' },
    { COUNT: batch, BLOCK: 1000 },
  );
  const messages = reply?.[0]?.messages ?? [];
  if (messages.length === 0) continue;
  const multi = client.multi();
  for (const m of messages) {
    const out = mapDocument(JSON.parse(m.message.body));
    multi.xAdd(target, '*', { body: JSON.stringify(out) });
  }
  await multi.exec();
  await client.xAck(
    source,
    group,
    messages.map((m) => m.id),
  );
  moved += messages.length;
}
await client.quit();
