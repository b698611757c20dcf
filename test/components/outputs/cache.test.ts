// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Bloblang interpolations, not JS templates
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryCache } from '../../../src/components/caches/memory.js';
import { spec } from '../../../src/components/outputs/cache.js';
import type { Cache } from '../../../src/engine/component.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';

async function cacheOutput(key: string, cache: Cache, ttl?: string) {
  const ctx = createTestContext({ type: 'cache' });
  await ctx.testEnv.resources.set('cache', 'store', cache, {});
  return spec.build({ target: 'store', key, max_in_flight: 64, ttl: ttl || undefined }, ctx);
}

describe('cache output', () => {
  it('stores each message of a batch under its interpolated key', async () => {
    const cache = new MemoryCache(60_000, 60_000);
    const output = await cacheOutput('${! json("id") }', cache);
    await output.write([new Message('{"id":"a","n":1}'), new Message('{"id":"b","n":2}')]);
    assert.equal(Buffer.from((await cache.get('a')) ?? []).toString(), '{"id":"a","n":1}');
    assert.equal(Buffer.from((await cache.get('b')) ?? []).toString(), '{"id":"b","n":2}');
    await output.close();
  });

  it('fails the batch when the cache fails, so the source is nacked', async () => {
    const failing: Cache = {
      get: async () => undefined,
      set: async () => {
        throw new Error('disk full');
      },
      add: async () => true,
      delete: async () => undefined,
      close: async () => undefined,
    } as unknown as Cache;
    const output = await cacheOutput('k', failing);
    await assert.rejects(output.write([new Message('x')]), /disk full/);
    await output.close();
  });

  it('fails construction when the cache resource does not exist, naming it', () => {
    const ctx = createTestContext({ type: 'cache' });
    assert.throws(
      () => spec.build({ target: 'absent', key: 'k', ttl: undefined, max_in_flight: 64 }, ctx),
      /cache resource 'absent' was not found/,
    );
  });

  it('writes to a replacement cache resource without being rebuilt', async () => {
    const ctx = createTestContext({ type: 'cache' });
    const before = new MemoryCache(60_000, 60_000);
    const after = new MemoryCache(60_000, 60_000);
    await ctx.testEnv.resources.set('cache', 'store', before, {});
    const output = await spec.build(
      { target: 'store', key: '${! content() }', ttl: undefined, max_in_flight: 64 },
      ctx,
    );
    await output.write([new Message('one')]);
    await ctx.testEnv.resources.set('cache', 'store', after, {});
    await output.write([new Message('two')]);
    assert.equal(await after.get('one'), undefined);
    assert.equal(Buffer.from((await after.get('two')) ?? []).toString(), 'two');
    await output.close();
  });

  it('passes the interpolated ttl to the cache in milliseconds', async () => {
    const ttls: Array<number | undefined> = [];
    const recording = {
      set: async (_k: string, _v: Uint8Array, ttlMs?: number) => {
        ttls.push(ttlMs);
      },
      close: async () => undefined,
    } as unknown as Cache;
    const output = await cacheOutput('k', recording, '${! json("t") }');
    await output.write([new Message('{"t":"2s"}'), new Message('{"t":""}')]);
    assert.deepEqual(ttls, [2000, undefined]);
    await output.close();
  });

  it('refuses a ttl that is not a duration, naming it', async () => {
    const output = await cacheOutput('k', new MemoryCache(60_000, 60_000), '${! "soon" }');
    await assert.rejects(output.write([new Message('x')]), /ttl must be a duration/);
    await output.close();
  });
});
