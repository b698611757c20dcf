import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LocalRateLimit, spec } from '../../../src/components/rate_limits/local.js';
import { createTestContext } from '../../helpers/context.js';

describe('local rate limit', () => {
  it('grants count accesses per interval, then reports the wait until the window ends', async () => {
    const limit = new LocalRateLimit(3, 50);
    assert.deepEqual([await limit.access(), await limit.access(), await limit.access()], [0, 0, 0]);
    const wait = await limit.access();
    assert.ok(wait > 0 && wait <= 50, `wait ${wait}`);
    await new Promise((r) => setTimeout(r, wait + 5));
    assert.equal(await limit.access(), 0);
  });

  it('builds from config and refuses a count of zero', async () => {
    const built = await spec.build({ count: 1, interval: '1s' }, createTestContext());
    assert.equal(await built.access(), 0);
    assert.ok((await built.access()) > 900);
    assert.throws(
      () => spec.build({ count: 0, interval: '1s' }, createTestContext()),
      /count must be larger/,
    );
  });
});
