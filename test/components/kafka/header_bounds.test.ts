import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callInChild } from '../../helpers/bounded_child.js';

const fixture = new URL('../../fixtures/hostile/kafka_headers.ts', import.meta.url);

describe('kafka header decoding on hostile records', () => {
  it('decodes 100,000 repeats of one header with multi_header in linear time', async () => {
    // Copying the list per value (quadratic) took minutes; linear takes milliseconds, so a
    // generous 20 s bound (child start-up included) separates the two on a loaded machine.
    const result = await callInChild(fixture, 'decodeRepeatedHeader', [100_000], 20_000);
    assert.deepEqual(result, { values: 100_000, last: '99999' });
  });
});
