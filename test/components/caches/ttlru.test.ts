import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadLruCache } from '../../../src/components/caches/lru_module.js';
import { spec, TtlruCache, type TtlruCacheConfig } from '../../../src/components/caches/ttlru.js';
import { createTestContext } from '../../helpers/context.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined) => (b === undefined ? undefined : new TextDecoder().decode(b));

/** A cache on a fake clock (starting well above 0) that the test moves forward. */
async function onFakeClock(cap: number, ttlMs: number, init: Record<string, string> = {}) {
  const clock = { now: 10_000 };
  const cache = new TtlruCache(await loadLruCache(), cap, ttlMs, init, () => clock.now);
  return { cache, advance: (ms: number) => (clock.now += ms) };
}

function config(partial: Partial<TtlruCacheConfig> = {}): TtlruCacheConfig {
  return { cap: 1024, default_ttl: '5m0s', ttl: undefined, init_values: {}, optimistic: false, ...partial };
}

describe('ttlru cache', () => {
  it('expires an entry default_ttl after it was written; reads do not extend it, writes do', async () => {
    const { cache, advance } = await onFakeClock(10, 1000);
    await cache.set('a', bytes('1'));
    await cache.set('b', bytes('2'));
    advance(600);
    assert.equal(text(await cache.get('a')), '1');
    await cache.set('b', bytes('3'));
    advance(600);
    assert.equal(await cache.get('a'), undefined);
    assert.equal(text(await cache.get('b')), '3');
    advance(600);
    assert.equal(await cache.get('b'), undefined);
  });

  it('ignores per-item TTLs', async () => {
    const { cache, advance } = await onFakeClock(10, 1000);
    await cache.set('k', bytes('v'), 10);
    advance(500);
    assert.equal(text(await cache.get('k')), 'v');
  });

  it('evicts the least recently used entry when full', async () => {
    const { cache } = await onFakeClock(2, 60_000);
    await cache.set('a', bytes('1'));
    await cache.set('b', bytes('2'));
    await cache.get('a');
    await cache.set('c', bytes('3'));
    assert.equal(await cache.get('b'), undefined);
    assert.equal(text(await cache.get('a')), '1');
    assert.equal(text(await cache.get('c')), '3');
  });

  it('frees the room of expired entries before evicting a live one', async () => {
    const { cache, advance } = await onFakeClock(2, 1000);
    await cache.set('a', bytes('1'));
    advance(500);
    await cache.set('b', bytes('2'));
    advance(100);
    await cache.get('a'); // a is now the most recently used, b the least
    advance(500); // a has expired, b lives until 1500
    await cache.set('c', bytes('3'));
    assert.equal(text(await cache.get('b')), '2');
    assert.equal(text(await cache.get('c')), '3');
    assert.equal(cache.size, 2);
  });

  it('add refuses a live key and accepts an expired one', async () => {
    const { cache, advance } = await onFakeClock(10, 1000);
    assert.equal(await cache.add('k', bytes('1')), true);
    assert.equal(await cache.add('k', bytes('2')), false);
    assert.equal(text(await cache.get('k')), '1');
    advance(1001);
    assert.equal(await cache.add('k', bytes('3')), true);
    assert.equal(text(await cache.get('k')), '3');
  });

  it('pre-loads init_values, which expire like any entry', async () => {
    const { cache, advance } = await onFakeClock(10, 1000, { foo: 'bar' });
    assert.equal(text(await cache.get('foo')), 'bar');
    advance(1001);
    assert.equal(await cache.get('foo'), undefined);
  });

  it('builds from config: init_values, the deprecated ttl field, and clear errors', async () => {
    const built = await spec.build(config({ init_values: { foo: 'bar' } }), createTestContext());
    assert.equal(text(await built.get('foo')), 'bar');
    await assert.rejects(
      Promise.resolve().then(() => spec.build(config({ default_ttl: '0s' }), createTestContext())),
      /default_ttl: must be bigger than 0s/,
    );
    // The deprecated field wins over default_ttl, as in the reference.
    await assert.rejects(
      Promise.resolve().then(() => spec.build(config({ ttl: '0s' }), createTestContext())),
      /must be bigger than 0s/,
    );
    await assert.rejects(
      Promise.resolve().then(() => spec.build(config({ cap: -1 }), createTestContext())),
      /capacity: must be bigger than 0/,
    );
  });
});
