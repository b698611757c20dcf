// Hand-written baseline for RX: read a file of log lines and apply the same four regexp
// assignments as the nekton mapping with V8's RegExp, discarding the result (as `drop` does).
import { createReadStream } from 'node:fs';

const ERROR = /status=5\d\d/;
const FIELDS = /^(?<ts>\S+) (?<level>[A-Z]+) user=(?<user>\w+)/;
const NUMBERS = /\d+/g;
const IP = /ip=(\d+)\.(\d+)\.\d+\.\d+/g;

function mapLine(line) {
  const m = FIELDS.exec(line);
  return {
    error: ERROR.test(line),
    fields: m ? { 0: m[0], ts: m.groups.ts, level: m.groups.level, user: m.groups.user } : {},
    numbers: (line.match(NUMBERS) ?? []).length,
    masked: line.replace(IP, 'ip=$1.$2.x.x'),
  };
}

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
      const out = mapLine(text.slice(start, nl));
      checksum += out.numbers + out.masked.length;
      count++;
    }
    start = nl + 1;
    nl = text.indexOf('\n', start);
  }
  carry = text.slice(start);
}
if (carry) {
  mapLine(carry);
  count++;
}
process.stdout.write(`${count} ${checksum}\n`);
