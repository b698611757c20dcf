// Hostile compressed input: bombs stop at the decompression limit without holding the event loop,
// and truncated input is an error, never a message padded with zeros.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import lz4 from 'lz4js';
import snappy from 'snappyjs';
import { spec as decompress } from '../../../src/components/processors/decompress.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';
import { fixture } from './compression_fixtures.js';

// A lower limit than the default keeps each bomb test short; the default is tested in limit.test.ts.
const LIMIT = 32 * 1024 * 1024;

async function unpack(algorithm: string, input: Uint8Array): Promise<Message> {
  const processor = await decompress.build({ algorithm }, createTestContext());
  const [[out]] = (await processor.process([new Message(input)])) as Message[][];
  return out!;
}

/** Runs `work` while a timer ticks every 5 ms; returns its result and the longest gap between ticks. */
async function whileTicking<T>(work: () => Promise<T>): Promise<{ result: T; longestGapMs: number }> {
  let last = performance.now();
  let longest = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  try {
    const result = await work();
    longest = Math.max(longest, performance.now() - last);
    return { result, longestGapMs: longest };
  } finally {
    clearInterval(ticker);
  }
}

/** A gzip bomb as the sender built it: many gzip members of 1 MiB of zeros (4,300 of them: 4.5 GB). */
function gzipBomb(members: number): Buffer {
  const member = gzipSync(Buffer.alloc(1 << 20));
  return Buffer.concat(Array.from({ length: members }, () => member));
}

// Generous: the bombs held the loop for 40 s before; a loaded machine may pause a few hundred ms.
const FAIR_GAP_MS = 2000;

describe('decompress processor on hostile input', () => {
  let saved: string | undefined;
  before(() => {
    saved = process.env.NEKTON_MAX_DECOMPRESSED_BYTES;
    process.env.NEKTON_MAX_DECOMPRESSED_BYTES = String(LIMIT);
  });
  after(() => {
    if (saved === undefined) delete process.env.NEKTON_MAX_DECOMPRESSED_BYTES;
    else process.env.NEKTON_MAX_DECOMPRESSED_BYTES = saved;
  });

  it('stops a 4 KB bzip2 bomb (6.2 GB of zeros) at the limit while timers keep firing', async () => {
    const bomb = fixture('zeros-6200000000.bz2');
    const { result, longestGapMs } = await whileTicking(() => unpack('bzip2', bomb));
    assert.match(result.error?.message ?? '', /exceeds the limit of 33554432 bytes/);
    assert.equal(result.byteSize(), bomb.length, 'the failed message passes on unchanged');
    assert.ok(longestGapMs < FAIR_GAP_MS, `the event loop was held for ${Math.round(longestGapMs)} ms`);
  });

  it('stops a 4.5 MB gzip bomb (4.3 GB) at the limit while timers keep firing', async () => {
    const { result, longestGapMs } = await whileTicking(() => unpack('gzip', gzipBomb(4300)));
    assert.match(result.error?.message ?? '', /exceeds the limit of 33554432 bytes/);
    assert.ok(longestGapMs < FAIR_GAP_MS, `the event loop was held for ${Math.round(longestGapMs)} ms`);
  });

  it('stops an lz4 frame past the limit, and decodes data just under it', async () => {
    const bomb = lz4.compress(Buffer.alloc(LIMIT + 1024 * 1024));
    const { result, longestGapMs } = await whileTicking(() => unpack('lz4', bomb));
    assert.match(result.error?.message ?? '', /exceeds the limit/);
    assert.ok(longestGapMs < FAIR_GAP_MS, `the event loop was held for ${Math.round(longestGapMs)} ms`);
    const data = Buffer.alloc(LIMIT - 1, 7);
    for (const [algorithm, packed] of [
      ['gzip', gzipSync(data)],
      ['lz4', lz4.compress(data)],
      ['snappy', snappy.compress(data)],
    ] as const) {
      const out = await unpack(algorithm, packed);
      assert.equal(out.error, null, algorithm);
      assert.equal(out.byteSize(), data.length, algorithm);
    }
  });

  it('fails a truncated 7-byte snappy block that declares 2 GB instead of passing zeros on', async () => {
    // Declared length 2^31 - 1 (varint ff ff ff ff 07), then one literal byte and nothing more.
    const out = await unpack('snappy', Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0x07, 0x00, 0x61));
    assert.ok(out.error, 'a truncated block is an error');
    assert.equal(out.byteSize(), 7);
  });

  it('fails snappy, lz4, gzip and bzip2 input cut short, as the reference does', async () => {
    const text = Buffer.from('the quick brown fox jumps over the lazy dog '.repeat(200));
    const cut = (b: Uint8Array) => b.subarray(0, b.length - 3);
    for (const [algorithm, packed] of [
      ['snappy', snappy.compress(text)],
      ['lz4', lz4.compress(text)],
      ['gzip', gzipSync(text)],
      ['bzip2', fixture('lines.txt.bz2')],
    ] as const) {
      const out = await unpack(algorithm, cut(packed));
      assert.ok(out.error, `${algorithm}: a truncated input must fail`);
    }
  });
});
