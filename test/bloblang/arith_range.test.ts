// A whole number outside int64 can only be a float64 in the reference, so arithmetic on it is
// float arithmetic; before, it was wrapped like an int64 and came out as garbage.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseMapping } from '../../src/bloblang/index.js';
import { Message } from '../../src/message/message.js';

function out(mapping: string, input: string): string {
  const res = parseMapping(mapping).apply([new Message(input)], 0);
  assert.ok(res);
  return res.text();
}

describe('arithmetic beyond int64', () => {
  const cases: [string, string, string][] = [
    ['{"a":1.5e300}', 'root = this.a + 1', '1.5e+300'],
    ['{"a":18446744073709551616}', 'root = this.a + 1', '18446744073709552000'],
    ['{"a":1e20}', 'root = this.a * 2', '200000000000000000000'],
    ['{"a":-1e19}', 'root = this.a - 1', '-10000000000000000000'],
    ['{}', 'root = "1e300".number() + 1', '1e+300'],
    ['{"a":1e20}', 'root = [this.a, 1].sum()', '100000000000000000000'],
  ];
  for (const [input, mapping, expected] of cases) {
    it(`${mapping} on ${input} is ${expected}`, () => assert.equal(out(mapping, input), expected));
  }

  it('int64 arithmetic still wraps as in the reference', () => {
    assert.equal(out('root = this.a + 1', '{"a":9223372036854775807}'), '-9223372036854775808');
    assert.equal(out('root = [this.a, 1].sum()', '{"a":9223372036854775807}'), '-9223372036854775808');
    assert.equal(out('root = this.a * 3', '{"a":3074457345618258603}'), '-9223372036854775807');
  });
});
