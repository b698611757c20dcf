// The decompress scanner streams bzip2 and lz4: the `into` scanner's max_buffer_size bounds what
// is held, where the whole stream used to be inflated first (6.2 GB for a 4 KB bzip2 file).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callInChild } from '../../helpers/bounded_child.js';

const fixture = new URL('../../fixtures/hostile/scanner_inputs.ts', import.meta.url);

describe('decompress scanner on hostile streams', () => {
  it('stops a bzip2 bomb at the lines scanner max_buffer_size in a 512 MB heap; decodes streams fed 7 bytes at a time', async () => {
    const result = await callInChild(fixture, 'bzip2BombIntoLines', [1024 * 1024], 60_000, [
      '--max-old-space-size=512',
    ]);
    assert.deepEqual(result, {
      messages: 0,
      error: 'a message exceeds max_buffer_size (1048576 bytes) before its delimiter was found',
    });
    // Blocks that arrive in pieces are waited for, never taken for truncated input.
    for (const [algorithm, name, lines] of [
      ['bzip2', 'lines.txt.bz2', 4000],
      ['bzip2', 'two-streams.bz2', 2],
      ['lz4', 'lines-linked-64k.txt.lz4', 4000],
    ] as const) {
      const fed = await callInChild(fixture, 'compressedLinesInSmallChunks', [algorithm, name], 60_000);
      assert.deepEqual(fed, { messages: lines, error: '' }, name);
    }
  });
});
