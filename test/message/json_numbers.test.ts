import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JsonNumber } from '../../src/bloblang/library.js';
import { needsExactParse, parseJson, stringifyJson } from '../../src/message/json.js';
import { Message } from '../../src/message/message.js';

const roundTrip = (text: string) => stringifyJson(parseJson(text));

describe('JSON numbers a float64 cannot hold', () => {
  it('keeps 1e400 as written instead of turning it into an unwritable +Inf', () => {
    const v = parseJson('{"id":2,"a":1e400}') as Record<string, unknown>;
    assert.ok(v.a instanceof JsonNumber);
    assert.equal((v.a as JsonNumber).text, '1e400');
    assert.equal(roundTrip('{"id":2,"a":1e400}'), '{"a":1e400,"id":2}');
  });

  it('round-trips big, tiny and long numbers with the same digits', () => {
    const text =
      '[1e400,-1e400,1e-400,1.5e300,2.5E-308,0.1000000000000000000001,12345678901234567890123,9007199254740993]';
    assert.equal(roundTrip(text), text);
  });

  it('leaves ordinary documents to JSON.parse (the fast path) and their numbers as numbers', () => {
    assert.equal(needsExactParse('{"id":12,"price":12.5,"qty":3,"exp":1e10}'), false);
    assert.equal(needsExactParse('{"id":12,"price":12.5,"qty":3,"exp":1e400}'), true);
    assert.equal(needsExactParse('[1,-2.5E-400]'), true);
    assert.equal(needsExactParse('1e400'), true);
    // Hex inside a string is not a number: an MD5 hash keeps the fast path.
    assert.equal(needsExactParse('{"md5":"d41d8cd98f00b204e9800998ecf8427e","n":1}'), false);
    assert.deepEqual(parseJson('{"id":12,"n":1.5,"e":1e10}'), { id: 12, n: 1.5, e: 1e10 });
  });

  it('tells a string that looks like a long exponent from the number, and still refuses malformed JSON', () => {
    assert.equal(roundTrip('{"s":"1e400","n":1e400}'), '{"n":1e400,"s":"1e400"}');
    for (const bad of ['[1e400', '[1e400,]', '{"a" 1e400}', '1e400 x', '{"a":1e400,}']) {
      assert.throws(() => parseJson(bad), SyntaxError, bad);
    }
  });

  it('writes a message parsed from such a document back with the same digits', () => {
    const msg = new Message('{"id":2,"a":1e400,"b":1e-400}');
    msg.setStructured(msg.structured());
    assert.equal(msg.text(), '{"a":1e400,"b":1e-400,"id":2}');
  });
});

describe('JSON nesting', () => {
  const nested = (depth: number, inner = '') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;

  it('parses and writes back 10,000 levels (the reference limit) on both parse paths', () => {
    for (const inner of ['', '1e400']) {
      const text = nested(10_000, inner);
      assert.equal(roundTrip(text), text);
    }
  });

  it('refuses 10,001 levels with a syntax error instead of a stack overflow', () => {
    for (const inner of ['', '1e400']) {
      assert.throws(() => parseJson(nested(10_001, inner)), /nested deeper than 10000 levels/);
    }
  });

  it('writes 4 KB of JSON nested deeper than 2,000 back intact', () => {
    const text = `{"a":${nested(2_040)},"id":2}`;
    const msg = new Message(text);
    msg.setStructured(msg.structured());
    assert.equal(msg.text(), text);
  });
});
