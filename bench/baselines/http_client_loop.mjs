// Hand-written baseline for W9: read a file of JSON lines and POST each to a local server with
// fetch (Node's undici), CONCURRENCY requests at a time, reading each answer. argv: url file concurrency.
import { readFileSync } from 'node:fs';

const [url, file, concurrencyText] = process.argv.slice(2);
const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
let next = 0;
let bytes = 0;
async function loop() {
  while (next < lines.length) {
    const body = lines[next++];
    const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    bytes += (await res.arrayBuffer()).byteLength;
  }
}
await Promise.all(Array.from({ length: Number(concurrencyText) }, loop));
process.stdout.write(`${lines.length} ${bytes}\n`);
