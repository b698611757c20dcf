// The compress()/decompress() methods: lz4, snappy and bzip2 through the same packages as the
// processors; files made by the standard tools decode (fixtures in test/fixtures/compression).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { MappingError, parseMapping } from '../../src/bloblang/index.js';
import { Message } from '../../src/message/message.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'compression');
const LINES = Array.from(
  { length: 4000 },
  (_, i) => `line ${i}: the quick brown fox jumps over the lazy dog\n`,
).join('');

function map(mapping: string, input: string | Uint8Array): Message {
  const out = parseMapping(mapping).apply([new Message(input)], 0);
  assert.ok(out);
  return out;
}

describe('compress() and decompress()', () => {
  for (const algorithm of ['lz4', 'snappy', 'gzip', 'zlib', 'flate']) {
    it(`${algorithm}: a round trip gives the input back, and the compressed form is smaller`, () => {
      const packed = map(`root = content().compress("${algorithm}")`, LINES).bytes();
      assert.ok(packed.length < LINES.length / 4, `${packed.length} bytes`);
      const unpacked = map(`root = content().decompress("${algorithm}")`, packed);
      assert.equal(unpacked.text(), LINES);
    });
  }

  it('lz4 writes the LZ4 frame format, and reads a file of the lz4 tool', () => {
    const packed = map('root = "abc".compress("lz4")', '').bytes();
    assert.deepEqual([...packed.subarray(0, 4)], [0x04, 0x22, 0x4d, 0x18]);
    const file = readFileSync(join(FIXTURES, 'abc.txt.lz4'));
    assert.equal(map('root = content().decompress("lz4")', file).text(), 'alpha\nbeta\ngamma\n');
  });

  it('bzip2 decodes a file of the bzip2 tool; compressing to bzip2 is refused, as in the reference', () => {
    const file = readFileSync(join(FIXTURES, 'lines.txt.bz2'));
    assert.equal(map('root = content().decompress("bzip2")', file).text(), LINES);
    assert.throws(() => map('root = content().compress("bzip2")', 'x'), MappingError);
  });

  it('decompress() in a mapping stops at 32 MiB (it cannot yield), naming the limit', () => {
    const packed = (mib: number) => gzipSync(Buffer.alloc(mib * 1024 * 1024));
    assert.equal(map('root = content().decompress("gzip")', packed(16)).bytes().length, 16 * 1024 * 1024);
    assert.throws(
      () => map('root = content().decompress("gzip")', packed(40)),
      /decompressed data exceeds the limit of 33554432 bytes/,
    );
  });

  it('garbage fails the mapping with the algorithm named', () => {
    for (const algorithm of ['lz4', 'snappy', 'bzip2']) {
      assert.throws(() => map(`root = content().decompress("${algorithm}")`, 'not compressed at all'), {
        message: new RegExp(algorithm),
      });
    }
  });
});
