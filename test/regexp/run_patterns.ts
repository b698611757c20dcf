// Child process for linear_time.test.ts: runs one pattern through every Bloblang regexp method
// over inputs of 10, 1,000 and 100,000 characters and prints what each returned (JSON). Kept in a
// child so that an engine that backtracks forever is killed by the test instead of hanging it.
import { parseMapping } from '../../src/bloblang/index.js';
import { Message } from '../../src/message/message.js';

const [pattern, unit, tail] = process.argv.slice(2);
const p = JSON.stringify(pattern);
const mapping = parseMapping(`
root.match = this.s.re_match(${p})
root.all = this.s.re_find_all(${p}).map_each(m -> m.length())
root.submatches = this.s.re_find_all_submatch(${p}).length()
root.object = this.s.re_find_object(${p}).keys().length()
root.replaced = this.s.re_replace_all(${p}, "<$0>").length()
`);
const results: Record<string, unknown> = {};
for (const size of [10, 1000, 100_000]) {
  const s = unit.repeat(size) + tail;
  results[size] = mapping.apply([new Message(JSON.stringify({ s }))], 0)?.structured();
}
process.stdout.write(JSON.stringify(results));
