import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type LruCacheConfig, lruCacheFromConfig, spec } from '../../../src/components/caches/lru.js';
import { ConfigError } from '../../../src/engine/errors.js';
import { createTestContext } from '../../helpers/context.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined) => (b === undefined ? undefined : new TextDecoder().decode(b));

function config(partial: Partial<LruCacheConfig> = {}): LruCacheConfig {
  return {
    cap: 1000,
    init_values: {},
    algorithm: 'standard',
    two_queues_recent_ratio: 0.25,
    two_queues_ghost_ratio: 0.5,
    optimistic: false,
    ...partial,
  };
}

/** Which of the keys the cache still holds, read without touching recency (add on a held key is false). */
async function held(cache: { get(k: string): Promise<Uint8Array | undefined> }, keys: string[]) {
  const out: string[] = [];
  for (const k of keys) if ((await cache.get(k)) !== undefined) out.push(k);
  return out;
}

describe('lru cache', () => {
  it('evicts the least recently used key once full; a read counts as a use', async () => {
    const cache = await lruCacheFromConfig(config({ cap: 2 }));
    await cache.set('a', bytes('1'));
    await cache.set('b', bytes('2'));
    assert.equal(text(await cache.get('a')), '1');
    await cache.set('c', bytes('3'));
    assert.equal(await cache.get('b'), undefined);
    assert.equal(text(await cache.get('a')), '1');
    assert.equal(text(await cache.get('c')), '3');
    assert.equal(cache.size, 2);
  });

  it('add refuses a key that is held and keeps its value; delete frees it', async () => {
    const cache = await lruCacheFromConfig(config());
    assert.equal(await cache.add('k', bytes('1')), true);
    assert.equal(await cache.add('k', bytes('2')), false);
    assert.equal(text(await cache.get('k')), '1');
    await cache.delete('k');
    assert.equal(await cache.get('k'), undefined);
    assert.equal(await cache.add('k', bytes('3')), true);
  });

  it('pre-loads init_values, which can be overwritten and count towards the capacity', async () => {
    const cache = await spec.build(
      config({ cap: 2, init_values: { foo: 'bar', x: 'y' } }),
      createTestContext(),
    );
    assert.equal(text(await cache.get('foo')), 'bar');
    await cache.set('foo', bytes('baz'));
    assert.equal(text(await cache.get('foo')), 'baz');
    await cache.set('new', bytes('1'));
    assert.equal(await cache.get('x'), undefined);
  });

  it('ignores per-item TTLs: entries leave only by eviction or delete', async () => {
    const cache = await lruCacheFromConfig(config());
    await cache.set('k', bytes('v'), 1);
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(text(await cache.get('k')), 'v');
  });

  it('two_queues keeps keys used twice through a burst of one-off keys (standard does not)', async () => {
    const burst = async (algorithm: string) => {
      const cache = await lruCacheFromConfig(config({ cap: 4, algorithm }));
      for (const k of ['a', 'b']) {
        await cache.set(k, bytes(k));
        await cache.get(k);
      }
      for (let i = 0; i < 10; i++) await cache.set(`once${i}`, bytes('x'));
      return held(cache, ['a', 'b']);
    };
    assert.deepEqual(await burst('two_queues'), ['a', 'b']);
    assert.deepEqual(await burst('arc'), ['a', 'b']);
    assert.deepEqual(await burst('standard'), []);
  });

  it('two_queues and arc still hold at most cap entries and evict the oldest one-off key first', async () => {
    for (const algorithm of ['two_queues', 'arc']) {
      const cache = await lruCacheFromConfig(config({ cap: 3, algorithm }));
      for (const k of ['a', 'b', 'c', 'd']) await cache.set(k, bytes(k));
      assert.equal(cache.size, 3, algorithm);
      assert.deepEqual(await held(cache, ['a', 'b', 'c', 'd']), ['b', 'c', 'd'], algorithm);
    }
  });

  it('arc: a key written again soon after its eviction is held again, within the capacity', async () => {
    const cache = await lruCacheFromConfig(config({ cap: 2, algorithm: 'arc' }));
    await cache.set('a', bytes('1'));
    await cache.set('b', bytes('2'));
    await cache.set('c', bytes('3')); // evicts a into the ghost list
    await cache.set('a', bytes('4')); // a ghost hit: a returns as a frequent entry
    assert.equal(text(await cache.get('a')), '4');
    assert.equal(cache.size, 2);
  });

  it('rejects a capacity below 1, an unknown algorithm and bad 2Q ratios', async () => {
    await assert.rejects(lruCacheFromConfig(config({ cap: 0 })), ConfigError);
    await assert.rejects(lruCacheFromConfig(config({ algorithm: 'fifo' })), /algorithm "fifo" not supported/);
    await assert.rejects(
      lruCacheFromConfig(config({ algorithm: 'two_queues', two_queues_recent_ratio: 2 })),
      /invalid recent ratio/,
    );
  });
});
