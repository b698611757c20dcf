// Hand-written baseline for W1: read a file line by line and write each line to stdout, as a
// competent Node developer would without a framework (chunked reads, one write per chunk).
import { createReadStream } from 'node:fs';

const input = createReadStream(process.argv[2], { highWaterMark: 64 * 1024 });
let carry = '';
for await (const chunk of input) {
  const text = carry + chunk.toString('utf8');
  const lastNewline = text.lastIndexOf('\n');
  if (lastNewline === -1) {
    carry = text;
    continue;
  }
  carry = text.slice(lastNewline + 1);
  const lines = text.slice(0, lastNewline).split('\n');
  const out = `${lines.join('\n')}\n`;
  if (!process.stdout.write(out)) await new Promise((r) => process.stdout.once('drain', r));
}
if (carry) process.stdout.write(`${carry}\n`);
