// uppercase()/lowercase() map one code point to one, as Go's strings.ToUpper/ToLower do.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseMapping } from '../../src/bloblang/index.js';
import { Message } from '../../src/message/message.js';

const run = (mapping: string, a: string) =>
  parseMapping(mapping)
    .apply([new Message(JSON.stringify({ a }))], 0)
    ?.text();

describe('case mapping', () => {
  it('keeps characters whose only uppercase is several characters (ß, ligatures)', () => {
    assert.equal(run('root = this.a.uppercase()', 'straße'), 'STRAßE');
    assert.equal(run('root = this.a.uppercase()', 'ŉ ﬁ'), 'ŉ ﬁ');
  });

  it('lowers İ to a plain i, one byte as in Go', () => {
    assert.equal(run('root = this.a.lowercase()', 'İ'), 'i');
    assert.equal(run('root = this.a.lowercase().length()', 'İ'), '1');
  });

  it('maps other letters as before, ASCII and not', () => {
    assert.equal(run('root = this.a.uppercase()', 'ünïcödé àé hello'), 'ÜNÏCÖDÉ ÀÉ HELLO');
    assert.equal(run('root = this.a.lowercase()', 'ÜNÏCÖDÉ ÀÉ HELLO'), 'ünïcödé àé hello');
  });
});
