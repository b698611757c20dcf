// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Bloblang interpolations, not JS templates
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryCache } from '../../../src/components/caches/memory.js';
import { spec } from '../../../src/components/processors/dedupe.js';
import type { Cache } from '../../../src/engine/component.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';

async function dedupe(cache: Cache, dropOnErr = true) {
  const ctx = createTestContext({ type: 'dedupe' });
  await ctx.testEnv.resources.set('cache', 'keys', cache, {});
  return spec.build({ cache: 'keys', key: '${! json("id") }', drop_on_err: dropOnErr }, ctx);
}

const msgs = (...ids: number[]) => ids.map((id) => new Message(JSON.stringify({ id })));
const ids = (batches: Message[][]) => batches.flat().map((m) => (m.structured() as { id: number }).id);

describe('dedupe processor', () => {
  it('drops the second copy of a key, within a batch and across batches', async () => {
    const p = await dedupe(new MemoryCache(60_000, 60_000));
    assert.deepEqual(ids(await p.process(msgs(1, 2, 1, 3))), [1, 2, 3]);
    assert.deepEqual(ids(await p.process(msgs(2, 4))), [4]);
    assert.deepEqual(await p.process(msgs(1, 4)), []);
  });

  const failing: Cache = {
    get: async () => undefined,
    set: async () => {},
    add: async () => {
      throw new Error('cache down');
    },
    delete: async () => {},
    close: async () => {},
  };

  it('drops messages when the cache fails and drop_on_err is true', async () => {
    const p = await dedupe(failing, true);
    assert.deepEqual(await p.process(msgs(1)), []);
  });

  it('keeps and flags messages when the cache fails and drop_on_err is false', async () => {
    const p = await dedupe(failing, false);
    const [out] = await p.process(msgs(1));
    assert.equal(out!.length, 1);
    assert.equal(out![0]!.error?.message, 'cache down');
  });
});
