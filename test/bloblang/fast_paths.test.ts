// Expressions the compiler evaluates on shortcuts (numbers compared directly, constant operands,
// constant match results, constant method arguments, the default trim): same answers as the
// general rules.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseMapping } from '../../src/bloblang/index.js';
import { Message } from '../../src/message/message.js';

function value(query: string, input = '{}'): unknown {
  const out = parseMapping(`root = ${query}`).apply([new Message(input)], 0);
  assert.ok(out);
  // A string root becomes the raw content; anything else is JSON.
  try {
    return out.structured();
  } catch {
    return out.text();
  }
}

function failure(query: string, input = '{}'): string {
  try {
    parseMapping(`root = ${query}`).apply([new Message(input)], 0);
  } catch (e) {
    return (e as Error).message;
  }
  assert.fail('did not fail');
}

describe('comparisons', () => {
  test('numbers, NaN ordering as equal to everything (as compareValues has it)', () => {
    const nan = '"NaN".number()';
    assert.deepEqual(
      [`${nan} < 1`, `${nan} <= 1`, `${nan} > 1`, `${nan} >= 1`].map((q) => value(q)),
      [false, true, false, true],
    );
    assert.deepEqual(
      ['this.n < 2', 'this.n <= 2', 'this.n > 2', 'this.n >= 2'].map((q) => value(q, '{"n":2}')),
      [false, true, false, true],
    );
  });

  test('strings and mixed kinds take the general rules', () => {
    assert.equal(value('this.s >= "b"', '{"s":"c"}'), true);
    assert.equal(value('this.s < this.t', '{"s":"a","t":"b"}'), true);
    assert.match(failure('this.s >= 1', '{"s":"c"}'), /cannot compare types string .* and number/);
  });

  test('== and != against a constant', () => {
    assert.equal(value('this.s == "active"', '{"s":"active"}'), true);
    assert.equal(value('this.s != "active"', '{"s":"inactive"}'), true);
    assert.equal(value('this.n == 1', '{"n":1.0}'), true);
    assert.equal(value('this.o == {"a":[1]}', '{"o":{"a":[1]}}'), true);
  });

  test('arithmetic with a constant operand', () => {
    assert.equal(value('this.n * 12', '{"n":3}'), 36);
    assert.equal(value('this.s + "!"', '{"s":"hi"}'), 'hi!');
    assert.match(failure('this.s * 2', '{"s":"x"}'), /cannot multiply types string/);
  });
});

describe('match with constant results', () => {
  const tier = (score: number) =>
    value(
      'match { this.score >= 90 => "gold"\n this.score >= 50 => "silver"\n _ => "bronze" }',
      `{"score":${score}}`,
    );
  test('picks the first case that holds', () => {
    assert.deepEqual([tier(95), tier(60), tier(10)], ['gold', 'silver', 'bronze']);
  });
  test('a case body that is not constant still runs in the matched context', () => {
    assert.equal(value('match { this.a == "x" => this.b, _ => "no" }', '{"a":"x","b":1}'), 1);
    assert.equal(value('match this.a { "x" => this.length(), _ => "no" }', '{"a":"x"}'), 1);
  });
});

describe('methods with constant arguments', () => {
  test('run with their arguments and name the target in errors', () => {
    assert.equal(value('this.tags.join(",")', '{"tags":["a","b"]}'), 'a,b');
    assert.match(failure('this.tags.join(",")', '{"tags":"a"}'), /this\.tags/);
  });
});

describe('trim', () => {
  test('the default set is Go unicode.IsSpace, at both ends only', () => {
    assert.equal(
      value('this.s.trim()', JSON.stringify({ s: '\t\n\v\f\r \u0085\u00a0x y\u2000\u3000\u205f' })),
      'x y',
    );
    assert.equal(value('this.s.trim()', JSON.stringify({ s: '\u200bx\u200b' })), '\u200bx\u200b');
    assert.equal(value('this.s.trim()', JSON.stringify({ s: '   ' })), '');
    assert.equal(value('this.s.trim("xy")', JSON.stringify({ s: 'xyaxy' })), 'a');
  });
});
