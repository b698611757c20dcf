import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hasLongDigitRun, parseJson } from '../../src/message/json.js';

describe('hasLongDigitRun', () => {
  it('agrees with /\\d{16}/ on random texts of digits and separators', () => {
    // A fixed-seed generator so a failure reproduces.
    let seed = 42;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let k = 0; k < 20_000; k++) {
      const length = Math.floor(next() * 80);
      let text = '';
      for (let i = 0; i < length; i++) text += next() < 0.85 ? String(Math.floor(next() * 10)) : ',';
      assert.equal(hasLongDigitRun(text), /\d{16}/.test(text), JSON.stringify(text));
    }
  });

  it('finds runs at the start, the end and across probe positions', () => {
    assert.equal(hasLongDigitRun('1234567890123456'), true);
    assert.equal(hasLongDigitRun('123456789012345'), false);
    assert.equal(hasLongDigitRun(`${'x'.repeat(17)}1234567890123456`), true);
    assert.equal(hasLongDigitRun(`x${'1'.repeat(15)}x${'2'.repeat(15)}x`), false);
  });

  it('keeps integers beyond 2^53 exact, others as numbers', () => {
    assert.deepEqual(parseJson('{"id":9007199254740993}'), { id: 9007199254740993n });
    assert.deepEqual(parseJson('{"id":12,"n":1.5}'), { id: 12, n: 1.5 });
  });
});
