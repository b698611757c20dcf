// Child process of the sqlite buffer's kill -9 test (not a test file itself): runs a stream with
// the sqlite buffer, a producer that logs each message the buffer acknowledged, and a slow
// consumer that logs each message it was handed. Arguments: db path, ack log, output log, count.
import { appendFileSync } from 'node:fs';
import { StreamBuilder } from '../../../src/api/index.js';

const [dbPath, ackLog, outLog, countText] = process.argv.slice(2) as [string, string, string, string];
const count = Number(countText);

const builder = new StreamBuilder();
builder.setYaml(`logger:\n  level: warn\nbuffer:\n  sqlite:\n    path: ${JSON.stringify(dbPath)}\n`);
const send = builder.addProducerFunc();
builder.addConsumerFunc(async (message) => {
  appendFileSync(outLog, `${message.asString()}\n`);
  // Slower than the producer, so the buffer holds a backlog when the process is killed.
  await new Promise((resolve) => setTimeout(resolve, 1));
});
const stream = await builder.build();
const running = stream.run();
// Four sends in flight at a time; each is logged once the buffer acknowledged it.
let next = 1;
async function sender(): Promise<void> {
  while (next <= count) {
    const n = next++;
    await send(String(n));
    appendFileSync(ackLog, `${n}\n`);
  }
}
await Promise.all([sender(), sender(), sender(), sender()]);
send.end();
await running;
