// `now()` and `timestamp_unix_nano()` never go back between two calls in one process (issue 17),
// and stay wall-clock time.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseMapping } from '../../src/bloblang/index.js';
import { Message } from '../../src/message/message.js';

const CALLS = 100_000;

function readings(mapping: string): string[] {
  const compiled = parseMapping(mapping);
  const out: string[] = [];
  for (let i = 0; i < CALLS; i++) out.push((compiled.apply([new Message('{}')], 0) as Message).text());
  return out;
}

describe('the Bloblang clock', () => {
  test(`timestamp_unix_nano() is non-decreasing over ${CALLS} calls and close to Date.now()`, () => {
    const before = BigInt(Date.now()) * 1_000_000n;
    const values = readings('root = timestamp_unix_nano()').map((t) => BigInt(t));
    const after = BigInt(Date.now() + 1) * 1_000_000n;
    let backwards = 0;
    for (let i = 1; i < values.length; i++)
      if ((values[i] as bigint) < (values[i - 1] as bigint)) backwards++;
    assert.equal(backwards, 0, `${backwards} readings went back`);
    // Wall clock: within the span measured around the calls (1 ms of slack for Date's truncation).
    assert.ok((values[0] as bigint) >= before - 1_000_000n, `${values[0]} < ${before}`);
    assert.ok((values.at(-1) as bigint) <= after, `${values.at(-1)} > ${after}`);
  });

  test('now() is non-decreasing too', () => {
    const values = readings('root = now().ts_unix_nano()').map((t) => BigInt(t));
    for (let i = 1; i < values.length; i++)
      assert.ok((values[i] as bigint) >= (values[i - 1] as bigint), `reading ${i} went back`);
  });
});
