// Go's RE2 refuses Perl lookarounds, backreferences and huge repeat counts. JavaScript would run
// them, so a pattern Benthos rejects would quietly match here: it is refused with Go's error.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseMapping } from '../../src/bloblang/index.js';
import { Message } from '../../src/message/message.js';

function run(pattern: string): string {
  try {
    const mapping = parseMapping(`root = this.a.re_match(${JSON.stringify(pattern)})`);
    return String(mapping.apply([new Message('{"a":"aba"}')], 0)?.text());
  } catch (err) {
    return (err as Error).message;
  }
}

describe('regular expressions RE2 refuses', () => {
  const refused: [string, RegExp][] = [
    // Go 1.22+ reads `(?<` as the start of a named group, hence its message.
    ['(?<=b)a', /invalid named capture: `\(\?<=b\)a`/],
    ['(?<!b)a', /invalid named capture/],
    ['(?=a)', /invalid or unsupported Perl syntax: `\(\?=`/],
    ['(?!a)b', /invalid or unsupported Perl syntax/],
    ['(a)\\1', /invalid escape sequence: `\\1`/],
    ['x{1001}', /invalid repeat count: `\{1001\}`/],
    ['x{2,1001}', /invalid repeat count/],
  ];
  for (const [pattern, error] of refused) {
    it(`refuses ${pattern}`, () => assert.match(run(pattern), error));
  }

  it('still accepts named groups in both spellings and counts up to 1000', () => {
    assert.equal(run('(?P<x>a)b'), 'true');
    assert.equal(run('(?<x>b)a'), 'true');
    assert.equal(run('a{1,1000}'), 'true');
    assert.equal(run('[(?=]'), 'false'); // inside a class these are plain characters
  });
});
