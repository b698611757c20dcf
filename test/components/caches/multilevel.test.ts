import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryCache } from '../../../src/components/caches/memory.js';
import { spec } from '../../../src/components/caches/multilevel.js';
import type { Cache } from '../../../src/engine/component.js';
import { ConfigError } from '../../../src/engine/errors.js';
import { createTestContext } from '../../helpers/context.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined) => (b === undefined ? undefined : new TextDecoder().decode(b));

async function leveled(levels = ['hot', 'cold']) {
  const ctx = createTestContext({ type: 'multilevel' });
  const hot = new MemoryCache(60_000, 60_000);
  const cold = new MemoryCache(60_000, 60_000);
  await ctx.testEnv.resources.set('cache', 'hot', hot, {});
  await ctx.testEnv.resources.set('cache', 'cold', cold, {});
  const cache = (await spec.build(levels, ctx)) as Cache;
  return { cache, hot, cold, ctx };
}

describe('multilevel cache', () => {
  it('reads through: a value found in a lower level is copied into the levels above', async () => {
    const { cache, hot, cold } = await leveled();
    await cold.set('k', bytes('v'));
    assert.equal(await hot.get('k'), undefined);
    assert.equal(text(await cache.get('k')), 'v');
    assert.equal(text(await hot.get('k')), 'v');
    assert.equal(await cache.get('missing'), undefined);
  });

  it('the first level that has the key answers', async () => {
    const { cache, hot, cold } = await leveled();
    await hot.set('k', bytes('hot'));
    await cold.set('k', bytes('cold'));
    assert.equal(text(await cache.get('k')), 'hot');
  });

  it('writes through: set and delete reach every level, with the TTL', async () => {
    const { cache, hot, cold } = await leveled();
    await cache.set('k', bytes('v'), 250);
    assert.equal(text(await hot.get('k')), 'v');
    assert.equal(text(await cold.get('k')), 'v');
    await new Promise((r) => setTimeout(r, 350));
    assert.equal(await hot.get('k'), undefined);
    assert.equal(await cold.get('k'), undefined);
    await cache.set('d', bytes('v'));
    await cache.delete('d');
    assert.equal(await hot.get('d'), undefined);
    assert.equal(await cold.get('d'), undefined);
  });

  it('add fails when any level holds the key, else adds to every level', async () => {
    const { cache, hot, cold } = await leveled();
    await hot.set('inHot', bytes('1'));
    await cold.set('inCold', bytes('1'));
    assert.equal(await cache.add('inHot', bytes('2')), false);
    assert.equal(await cache.add('inCold', bytes('2')), false);
    assert.equal(text(await cold.get('inCold')), '1');
    assert.equal(await hot.get('inCold'), undefined);
    assert.equal(await cache.add('new', bytes('3')), true);
    assert.equal(text(await hot.get('new')), '3');
    assert.equal(text(await cold.get('new')), '3');
  });

  it('needs at least two levels, and a missing level fails the operation with its name', async () => {
    const ctx = createTestContext();
    assert.throws(() => spec.build(['only'], ctx), ConfigError);
    assert.throws(() => spec.build(['only'], ctx), /expected at least two cache levels, found 1/);
    const { cache } = await leveled(['hot', 'nowhere']);
    await assert.rejects(cache.get('k'), /cache 'nowhere'.*not found/);
    await assert.rejects(cache.set('k', bytes('v')), /cache 'nowhere'/);
  });
});
