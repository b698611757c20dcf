import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { spec as compress } from '../../../src/components/processors/compress.js';
import { spec as decompress } from '../../../src/components/processors/decompress.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';

const text = 'the quick brown fox jumps over the lazy dog '.repeat(20);

describe('compress and decompress processors', () => {
  for (const algorithm of ['gzip', 'pgzip', 'zlib', 'flate']) {
    it(`round-trips ${algorithm} at several levels`, async () => {
      const d = await decompress.build({ algorithm }, createTestContext());
      for (const level of [-1, 0, 1, 9]) {
        const c = await compress.build({ algorithm, level }, createTestContext());
        const [[packed]] = (await c.process([new Message(text)])) as Message[][];
        assert.equal(packed!.error, null);
        if (level !== 0) assert.ok(packed!.byteSize() < text.length, `${algorithm} ${level} did not shrink`);
        const [[unpacked]] = (await d.process([packed!])) as Message[][];
        assert.equal(unpacked!.text(), text);
      }
    });
  }

  it('writes standard gzip that other tools read', async () => {
    const c = await compress.build({ algorithm: 'gzip', level: -1 }, createTestContext());
    const [[packed]] = (await c.process([new Message('hello')])) as Message[][];
    assert.equal(gunzipSync(packed!.bytes()).toString(), 'hello');
  });

  it('flags a message that is not compressed data and keeps its content', async () => {
    const d = await decompress.build({ algorithm: 'gzip' }, createTestContext());
    const [[out]] = (await d.process([new Message('not gzip')])) as Message[][];
    assert.ok(out!.error);
    assert.equal(out!.text(), 'not gzip');
  });

  it('fails at build for algorithms nekton cannot run, and for a bad level', () => {
    assert.throws(
      () => compress.build({ algorithm: 'lz4', level: -1 }, createTestContext()),
      /lz4 is not supported/,
    );
    assert.throws(
      () => decompress.build({ algorithm: 'snappy' }, createTestContext()),
      /snappy is not supported/,
    );
    assert.throws(
      () => decompress.build({ algorithm: 'bzip2' }, createTestContext()),
      /bzip2 is not supported/,
    );
    assert.throws(() => compress.build({ algorithm: 'gzip', level: 12 }, createTestContext()), /level/);
  });
});
