import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { spec } from '../../../src/components/processors/rate_limit.js';
import { LocalRateLimit } from '../../../src/components/rate_limits/local.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';
import { listenerLeakWarnings } from '../../helpers/kit.js';

describe('rate_limit processor', () => {
  it('holds messages beyond the limit until the next interval', async () => {
    const ctx = createTestContext({ type: 'rate_limit' });
    await ctx.testEnv.resources.set('rate_limit', 'slow', new LocalRateLimit(2, 300), {});
    const p = await spec.build({ resource: 'slow' }, ctx);
    const started = Date.now();
    const out = await p.process([new Message('a'), new Message('b')]);
    assert.ok(Date.now() - started < 200, 'the first two should pass at once');
    assert.equal(out[0]!.length, 2);
    await p.process([new Message('c')]);
    assert.ok(Date.now() - started >= 250, 'the third should wait for the next interval');
  });

  it('holds many messages at once without a listener-leak warning', async () => {
    // An output's processors run for every message in flight at once: 40 wait here.
    const ctx = createTestContext({ type: 'rate_limit' });
    await ctx.testEnv.resources.set('rate_limit', 'some', new LocalRateLimit(20, 100), {});
    const p = await spec.build({ resource: 'some' }, ctx);
    const warnings = await listenerLeakWarnings(async () => {
      const outs = await Promise.all(Array.from({ length: 40 }, (_, i) => p.process([new Message(`${i}`)])));
      assert.equal(outs.length, 40);
    });
    assert.deepEqual(warnings, []);
    await p.close();
  });

  it('fails at build when the rate limit resource does not exist', () => {
    assert.throws(() => spec.build({ resource: 'none' }, createTestContext()), /rate limit resource 'none'/);
  });
});
