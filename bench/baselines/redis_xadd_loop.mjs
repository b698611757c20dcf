// Hand-written baseline for W8 (Redis): read a file of JSON lines and XADD each line to a stream
// under `body`, with the three fields nekton's file input adds as metadata, BATCH XADDs per MULTI,
// one MULTI at a time. argv: url stream file batch.
import { createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createClient } from '@redis/client';

const [url, stream, file, batchText] = process.argv.slice(2);
const batch = Number(batchText);
const client = createClient({ url });
await client.connect();
const mtime = statSync(file).mtime;
const meta = {
  path: file,
  mod_time_unix: String(Math.floor(mtime.getTime() / 1000)),
  mod_time: mtime.toISOString(),
};
let multi = client.multi();
let queued = 0;
for await (const line of createInterface({ input: createReadStream(file) })) {
  if (!line) continue;
  multi.xAdd(stream, '*', { body: line, ...meta });
  if (++queued >= batch) {
    await multi.exec();
    multi = client.multi();
    queued = 0;
  }
}
if (queued > 0) await multi.exec();
await client.quit();
