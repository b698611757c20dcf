import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadLruCache } from '../../../src/components/caches/lru_module.js';
import { RistrettoCache, type RistrettoOptions, spec } from '../../../src/components/caches/ristretto.js';
import { createTestContext } from '../../helpers/context.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined) => (b === undefined ? undefined : new TextDecoder().decode(b));

async function onFakeClock(options: Partial<RistrettoOptions> = {}) {
  const clock = { now: 10_000 };
  const cache = new RistrettoCache(await loadLruCache(), {
    defaultTtlMs: 0,
    getRetries: null,
    clock: () => clock.now,
    ...options,
  });
  return { cache, advance: (ms: number) => (clock.now += ms) };
}

describe('ristretto cache', () => {
  it('keeps items without a TTL forever; default_ttl and a per-item TTL expire them', async () => {
    const plain = await onFakeClock();
    await plain.cache.set('k', bytes('v'));
    plain.advance(10 * 365 * 24 * 3600 * 1000);
    assert.equal(text(await plain.cache.get('k')), 'v');

    const { cache, advance } = await onFakeClock({ defaultTtlMs: 1000 });
    await cache.set('default', bytes('1'));
    await cache.set('own', bytes('2'), 5000);
    advance(1001);
    assert.equal(await cache.get('default'), undefined);
    assert.equal(text(await cache.get('own')), '2');
    advance(4000);
    assert.equal(await cache.get('own'), undefined);
  });

  it('add overwrites an existing key, as in the reference (not for deduplication)', async () => {
    const { cache } = await onFakeClock();
    assert.equal(await cache.add('k', bytes('1')), true);
    assert.equal(await cache.add('k', bytes('2')), true);
    assert.equal(text(await cache.get('k')), '2');
    await cache.delete('k');
    assert.equal(await cache.get('k'), undefined);
  });

  it('is bounded by bytes: old entries are evicted, and an item larger than the bound is refused', async () => {
    const { cache } = await onFakeClock({ maxBytes: 10 });
    await cache.set('a', bytes('1234'));
    await cache.set('b', bytes('1234'));
    await cache.set('c', bytes('1234'));
    assert.equal(await cache.get('a'), undefined);
    assert.equal(text(await cache.get('c')), '1234');
    await assert.rejects(cache.set('big', bytes('0123456789')), /set operation was dropped/);
  });

  it('with get_retries, a get waits for a key written meanwhile; without, it misses at once', async () => {
    const built = await spec.build(
      {
        default_ttl: '',
        get_retries: {
          enabled: true,
          initial_interval: '20ms',
          max_interval: '50ms',
          max_elapsed_time: '5s',
        },
      },
      createTestContext(),
    );
    const pending = built.get('late');
    setTimeout(() => void built.set('late', bytes('here')), 30);
    assert.equal(text(await pending), 'here');

    const { cache } = await onFakeClock();
    const started = cache.get('late');
    await cache.set('late', bytes('too late'));
    assert.equal(await started, undefined);
  });
});
