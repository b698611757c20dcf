import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryCache, spec } from '../../../src/components/caches/memory.js';
import { createTestContext } from '../../helpers/context.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined) => (b === undefined ? undefined : new TextDecoder().decode(b));
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('memory cache', () => {
  it('gets what was set and nothing for unknown keys', async () => {
    const cache = new MemoryCache(60_000, 60_000);
    await cache.set('a', bytes('1'));
    assert.equal(text(await cache.get('a')), '1');
    assert.equal(await cache.get('b'), undefined);
  });

  it('expires items after the default TTL, and a per-item TTL overrides it', async () => {
    const cache = new MemoryCache(300, 10);
    await cache.set('short', bytes('x'), 10);
    await cache.set('default', bytes('y'));
    await wait(40);
    assert.equal(await cache.get('short'), undefined);
    assert.equal(text(await cache.get('default')), 'y');
    await wait(300);
    assert.equal(await cache.get('default'), undefined);
  });

  it('removes expired items from memory at the next write after the compaction interval', async () => {
    // Generous times: both sets must land well inside one TTL even on a loaded machine.
    const cache = new MemoryCache(300, 400);
    await cache.set('a', bytes('1'));
    await cache.set('b', bytes('2'));
    await wait(450);
    assert.equal(cache.size, 2);
    await cache.set('c', bytes('3'));
    assert.equal(cache.size, 1);
  });

  it('add refuses a live key but accepts an expired one', async () => {
    const cache = new MemoryCache(100, 1000);
    assert.equal(await cache.add('k', bytes('1')), true);
    assert.equal(await cache.add('k', bytes('2')), false);
    assert.equal(text(await cache.get('k')), '1');
    await wait(150);
    assert.equal(await cache.add('k', bytes('3')), true);
  });

  it('keeps init values forever, and an empty compaction_interval disables expiry', async () => {
    const built = await spec.build(
      { default_ttl: '1ms', compaction_interval: '', init_values: { foo: 'bar' }, shards: 1 },
      createTestContext(),
    );
    await built.set('k', bytes('v'));
    await wait(10);
    assert.equal(text(await built.get('foo')), 'bar');
    assert.equal(text(await built.get('k')), 'v');
  });

  it('deletes keys', async () => {
    const cache = new MemoryCache(60_000, 60_000, { a: '1' });
    await cache.delete('a');
    await cache.delete('never-there');
    assert.equal(await cache.get('a'), undefined);
  });
});
