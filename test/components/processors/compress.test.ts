import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { spec as compress } from '../../../src/components/processors/compress.js';
import { spec as decompress } from '../../../src/components/processors/decompress.js';
import { ConfigError } from '../../../src/engine/errors.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';
import { fixture, hasTool, linesTxt } from './compression_fixtures.js';

const text = 'the quick brown fox jumps over the lazy dog '.repeat(20);

async function run(processor: { process(batch: Message[]): unknown }, input: Uint8Array | string) {
  const [[out]] = (await processor.process([new Message(input)])) as Message[][];
  return out!;
}

const pack = async (algorithm: string, input: Uint8Array | string, level = -1) =>
  run(await compress.build({ algorithm, level }, createTestContext()), input);
const unpack = async (algorithm: string, input: Uint8Array | string) =>
  run(await decompress.build({ algorithm }, createTestContext()), input);

describe('compress and decompress processors', () => {
  for (const algorithm of ['gzip', 'pgzip', 'zlib', 'flate', 'lz4', 'snappy']) {
    it(`round-trips ${algorithm} at several levels`, async () => {
      for (const level of [-1, 0, 1, 9]) {
        const packed = await pack(algorithm, text, level);
        assert.equal(packed.error, null);
        // lz4 and snappy have no "store" level: they always compress.
        if (level !== 0 || algorithm === 'lz4' || algorithm === 'snappy')
          assert.ok(packed.byteSize() < text.length, `${algorithm} ${level} did not shrink`);
        const unpacked = await unpack(algorithm, packed.bytes());
        assert.equal(unpacked.error, null);
        assert.equal(unpacked.text(), text);
      }
    });
  }

  it('round-trips binary and empty payloads through lz4 and snappy', async () => {
    const binary = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 251);
    for (const algorithm of ['lz4', 'snappy']) {
      for (const payload of [binary, new Uint8Array(0)]) {
        const unpacked = await unpack(algorithm, (await pack(algorithm, payload)).bytes());
        assert.deepEqual(new Uint8Array(unpacked.bytes()), payload, `${algorithm} ${payload.length}`);
      }
    }
  });

  it('writes standard gzip that other tools read', async () => {
    const packed = await pack('gzip', 'hello');
    assert.equal(gunzipSync(packed.bytes()).toString(), 'hello');
  });

  it('writes the LZ4 frame format (magic 04 22 4d 18), not a bare block', async () => {
    const packed = (await pack('lz4', text)).bytes();
    assert.deepEqual([...packed.subarray(0, 4)], [0x04, 0x22, 0x4d, 0x18]);
  });

  it('writes lz4 that the lz4 command line tool decodes', { skip: !hasTool('lz4') }, async () => {
    const packed = (await pack('lz4', linesTxt())).bytes();
    assert.equal(execFileSync('lz4', ['-d', '-c'], { input: packed }).toString(), linesTxt());
  });

  it('reads lz4 frames written by the lz4 tool, linked 64 KiB blocks included', async () => {
    assert.equal((await unpack('lz4', fixture('abc.txt.lz4'))).text(), 'alpha\nbeta\ngamma\n');
    const linked = await unpack('lz4', fixture('lines-linked-64k.txt.lz4'));
    assert.equal(linked.error, null);
    assert.equal(linked.text(), linesTxt());
  });

  it('writes the snappy block format byte for byte as Go snappy.Encode does for short input', async () => {
    // Uncompressed length 5 as a varint, then one literal: tag (5-1)<<2.
    const packed = (await pack('snappy', 'hello')).bytes();
    assert.deepEqual([...packed], [0x05, 0x10, ...Buffer.from('hello')]);
  });

  it('reads a snappy block with a back-reference, built by hand from the format description', async () => {
    // Length 12; literal "abc"; copy with 1-byte offset: length 9, offset 3.
    const block = Uint8Array.of(0x0c, 0x08, 0x61, 0x62, 0x63, 0x15, 0x03);
    assert.equal((await unpack('snappy', block)).text(), 'abcabcabcabc');
  });

  it('reads bzip2 written by the bzip2 tool, concatenated streams included', async () => {
    assert.equal((await unpack('bzip2', fixture('lines.txt.bz2'))).text(), linesTxt());
    assert.equal((await unpack('bzip2', fixture('two-streams.bz2'))).text(), 'first\nsecond\n');
  });

  for (const algorithm of ['gzip', 'lz4', 'snappy', 'bzip2']) {
    it(`flags a message that is not ${algorithm} data and keeps its content`, async () => {
      const out = await unpack(algorithm, 'not compressed at all');
      assert.ok(out.error, `${algorithm} accepted garbage`);
      assert.equal(out.text(), 'not compressed at all');
    });
  }

  it('flags a corrupted bzip2 stream instead of passing on wrong bytes', async () => {
    const bad = Buffer.from(fixture('lines.txt.bz2'));
    bad[bad.length >> 1]! ^= 0xff;
    assert.ok((await unpack('bzip2', bad)).error);
  });

  it('fails at build with a one-line config error naming the field', async () => {
    const ctx = createTestContext();
    await assert.rejects(
      async () => compress.build({ algorithm: 'lz5', level: -1 }, ctx),
      (err: Error) =>
        err instanceof ConfigError &&
        err.message ===
          `${ctx.path}.compress.algorithm: compression algorithm lz5 is not recognised, expected one of flate, gzip, lz4, pgzip, snappy, zlib`,
    );
    await assert.rejects(
      async () => compress.build({ algorithm: 'gzip', level: 12 }, ctx),
      (err: Error) => err instanceof ConfigError && err.message.startsWith(`${ctx.path}.compress.level: `),
    );
    // bzip2 only decodes, in the reference too.
    await assert.rejects(
      async () => compress.build({ algorithm: 'bzip2', level: -1 }, ctx),
      /bzip2 is not recognised/,
    );
  });

  it('lints every algorithm the reference lists', () => {
    const options = (name: string, spec: typeof compress | typeof decompress) =>
      spec.fields.find((f) => f.name === name)?.options;
    assert.deepEqual(options('algorithm', compress), ['flate', 'gzip', 'lz4', 'pgzip', 'snappy', 'zlib']);
    assert.deepEqual(options('algorithm', decompress), [
      'bzip2',
      'flate',
      'gzip',
      'lz4',
      'pgzip',
      'snappy',
      'zlib',
    ]);
  });
});
