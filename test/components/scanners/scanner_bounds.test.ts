// Scanners on hostile streams: memory in proportion to what they emit, time linear in the input.
// Each case runs in a child process, with a heap limit where memory is the point.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callInChild } from '../../helpers/bounded_child.js';

const fixture = new URL('../../fixtures/hostile/scanner_inputs.ts', import.meta.url);
const MB = 1024 * 1024;

describe('scanners on hostile streams', () => {
  it('csv holds a 200 MB unterminated field in about its own size (it took ~33x and aborted the heap)', async () => {
    const result = await callInChild(fixture, 'csvUnterminatedField', [200 * MB], 60_000, [
      '--max-old-space-size=1024',
    ]);
    assert.deepEqual(result, {
      messages: 0,
      error: 'parse error on line 1: extraneous or missing " in quoted-field',
    });
  });

  it('json_documents reads a 64 MB document in 64 KiB chunks in linear time (it rescanned the buffer per chunk)', async () => {
    const result = await callInChild(fixture, 'jsonDocumentsOneLargeDocument', [64 * MB], 30_000);
    assert.deepEqual(result, { messages: 2, error: '' });
  });

  it('chunker cuts 64 MB pieces from 64 KiB chunks in linear time (it copied the carry per chunk)', async () => {
    const result = await callInChild(fixture, 'chunkerLargePieces', [64 * MB, 256 * MB], 30_000);
    assert.deepEqual(result, { messages: 4, error: '' });
  });
});
