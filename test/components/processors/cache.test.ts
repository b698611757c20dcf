// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Bloblang interpolations, not JS templates
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryCache } from '../../../src/components/caches/memory.js';
import { spec } from '../../../src/components/processors/cache.js';
import type { Processor } from '../../../src/engine/component.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';

/** The config as written; optional fields may be left out. */
type CacheConfig = Parameters<typeof spec.build>[0];

async function withCache(
  config: Partial<Omit<CacheConfig, 'resource'>>,
  cache = new MemoryCache(60_000, 60_000),
) {
  const ctx = createTestContext({ type: 'cache' });
  await ctx.testEnv.resources.set('cache', 'store', cache, {});
  const processor = await spec.build({ resource: 'store', ...config } as CacheConfig, ctx);
  return { processor, cache };
}

async function one(processor: Processor, text: string): Promise<Message> {
  const out = await processor.process([new Message(text)]);
  return out[0]![0]!;
}

describe('cache processor', () => {
  it('sets a value under an interpolated key, then gets it back as the content', async () => {
    const { processor: set, cache } = await withCache({
      operator: 'set',
      key: '${! json("id") }',
      value: '${! json("v") }',
    });
    const stored = await one(set, '{"id":"k1","v":"hello"}');
    assert.equal(stored.error, null);
    assert.equal(stored.text(), '{"id":"k1","v":"hello"}');
    const { processor: get } = await withCache({ operator: 'get', key: '${! json("id") }' }, cache);
    assert.equal((await one(get, '{"id":"k1"}')).text(), 'hello');
  });

  it('flags a get of a missing key and keeps the content', async () => {
    const { processor } = await withCache({ operator: 'get', key: 'nope' });
    const out = await one(processor, 'original');
    assert.match(out.error?.message ?? '', /key does not exist/);
    assert.equal(out.text(), 'original');
  });

  it('add flags the second message with the same key', async () => {
    const { processor } = await withCache({ operator: 'add', key: '${! content() }', value: 'x' });
    const [out] = await processor.process([new Message('a'), new Message('b'), new Message('a')]);
    assert.deepEqual(
      out!.map((m) => m.error?.message ?? null),
      [null, null, 'key already exists: a'],
    );
  });

  it('exists answers true or false; delete removes the key', async () => {
    const cache = new MemoryCache(60_000, 60_000, { present: 'yes' });
    const { processor: exists } = await withCache({ operator: 'exists', key: '${! content() }' }, cache);
    assert.equal((await one(exists, 'present')).structured(), true);
    assert.equal((await one(exists, 'absent')).structured(), false);
    const { processor: del } = await withCache({ operator: 'delete', key: 'present' }, cache);
    assert.equal((await one(del, 'x')).error, null);
    assert.equal((await one(exists, 'present')).structured(), false);
  });

  it('stores with the interpolated ttl', async () => {
    const { processor, cache } = await withCache({ operator: 'set', key: 'k', value: 'v', ttl: '150ms' });
    await one(processor, 'x');
    assert.ok(await cache.get('k'));
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(await cache.get('k'), undefined);
  });

  it('flags a message whose ttl is not a duration', async () => {
    const { processor } = await withCache({ operator: 'set', key: 'k', value: 'v', ttl: 'soon' });
    assert.match((await one(processor, 'x')).error?.message ?? '', /ttl must be a duration/);
  });

  it('fails at build when the cache resource does not exist', async () => {
    assert.throws(
      () =>
        spec.build({ resource: 'missing', operator: 'get', key: 'k' } as CacheConfig, createTestContext()),
      /cache resource 'missing' was not found/,
    );
  });
});
