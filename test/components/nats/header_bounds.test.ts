import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callInChild } from '../../helpers/bounded_child.js';

const fixture = new URL('../../fixtures/hostile/nats_headers.ts', import.meta.url);

// The client's header set was quadratic (over 120 s for 60,000 headers, 27 s for 40,000); linear
// takes well under a second, so 20 s (child start-up included) separates them on a loaded machine.
describe('NATS headers on hostile messages', () => {
  it('decodes one message with 60,000 headers into metadata in linear time', async () => {
    const result = await callInChild(fixture, 'decodeManyHeaders', [60_000], 20_000);
    assert.deepEqual(result, { metadata: 60_000, last: 'v59999' });
  });

  it('sends 40,000 metadata keys as headers in linear time', async () => {
    const result = (await callInChild(fixture, 'buildManyHeaders', [40_000], 20_000)) as {
      headers: number;
      bytes: number;
    };
    assert.equal(result.headers, 40_000);
    assert.ok(result.bytes > 40_000 * 8);
  });
});
