// Hand-written baseline for W2: read a file of JSON lines, parse each, apply the same ten
// assignments as the nekton mapping, and discard the result (as nekton's `drop` does; neither side
// serialises). Chunked reads, as a competent Node developer would write it.
import { createReadStream } from 'node:fs';
import { mapDocument } from './doc_mapping.mjs';

const input = createReadStream(process.argv[2], { highWaterMark: 64 * 1024 });
let carry = '';
let count = 0;
let checksum = 0;
for await (const chunk of input) {
  const text = carry + chunk.toString('utf8');
  let start = 0;
  let nl = text.indexOf('\n', start);
  while (nl !== -1) {
    if (nl > start) {
      const out = mapDocument(JSON.parse(text.slice(start, nl)));
      checksum += out.age_months;
      count++;
    }
    start = nl + 1;
    nl = text.indexOf('\n', start);
  }
  carry = text.slice(start);
}
if (carry) {
  mapDocument(JSON.parse(carry));
  count++;
}
process.stdout.write(`${count} ${checksum}\n`);
