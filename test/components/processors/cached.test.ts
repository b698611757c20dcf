// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Bloblang interpolations, not JS templates
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryCache } from '../../../src/components/caches/memory.js';
import { decodeCachedResult, encodeCachedResult } from '../../../src/components/processors/cached_format.js';
import { registry } from '../../../src/components/registry.js';
import { normaliseComponent } from '../../../src/config/normalise.js';
import { schemaProvider } from '../../../src/config/schema.js';
import type { Cache, Processor } from '../../../src/engine/component.js';
import { Message } from '../../../src/message/message.js';
import { createTestEnv } from '../../helpers/context.js';

const provider = schemaProvider(registry);
const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined) => (b === undefined ? undefined : new TextDecoder().decode(b));

/** A `cached` processor over a cache resource named `store`. */
async function cached(settings: Record<string, unknown>, cache: Cache = new MemoryCache(60_000, 60_000)) {
  const env = createTestEnv();
  await env.resources.set('cache', 'store', cache, {});
  const config = normaliseComponent(
    'processor',
    { cached: { cache: 'store', ...settings } },
    { docPath: [], configPath: 'root.pipeline.processors.0' },
    { provider },
  );
  const processor = await env.builder.buildProcessor(config);
  return { processor, cache };
}

/** The messages one input message turns into. */
async function run(
  processor: Processor,
  content: string,
  meta: Record<string, string> = {},
): Promise<Message[]> {
  const msg = new Message(content);
  for (const [k, v] of Object.entries(meta)) msg.setMeta(k, v);
  const out = await processor.process([msg]);
  return out.flat();
}

const upper = [{ mapping: 'meta ran = "yes"\nroot = content().uppercase()' }];

describe('cached processor', () => {
  it('runs the processors on a miss and stores the result; a hit skips them', async () => {
    const { processor, cache } = await cached({ key: 'static', processors: upper });
    const [first] = await run(processor, 'a');
    assert.equal(first?.text(), 'A');
    assert.equal(first?.getMeta('ran'), 'yes');
    assert.deepEqual(decodeCachedResult((await cache.get('static'))!).map(text), ['A']);

    const [second] = await run(processor, 'b', { origin: 'kept' });
    assert.equal(second?.text(), 'A');
    // The processors did not run: their metadata is absent, the input's is kept.
    assert.equal(second?.getMeta('ran'), undefined);
    assert.equal(second?.getMeta('origin'), 'kept');
    assert.equal(second?.error, null);
  });

  it('keys are interpolated per message', async () => {
    const { processor } = await cached({
      key: '${! json("id") }',
      processors: [{ mapping: 'root = this.v' }],
    });
    assert.equal((await run(processor, '{"id":1,"v":"one"}'))[0]?.text(), 'one');
    assert.equal((await run(processor, '{"id":2,"v":"two"}'))[0]?.text(), 'two');
    assert.equal((await run(processor, '{"id":1,"v":"other"}'))[0]?.text(), 'one');
  });

  it('a result of no messages is cached too: a hit drops the message', async () => {
    const { processor } = await cached({
      key: 'k',
      processors: [{ mapping: 'root = if content() == "drop" { deleted() } else { content() }' }],
    });
    assert.deepEqual(await run(processor, 'drop'), []);
    assert.deepEqual(await run(processor, 'keep'), []);
  });

  it('stores the TTL with the result', async () => {
    const { processor, cache } = await cached({ key: 'k', ttl: '200ms', processors: upper });
    await run(processor, 'a');
    assert.ok(await cache.get('k'));
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(await cache.get('k'), undefined);
  });

  it('skip_on keeps a failed result out of the cache; the message leaves flagged', async () => {
    const processors = [{ mapping: 'root = this.n.number()' }];
    const { processor, cache } = await cached({ key: 'k', skip_on: 'errored()', processors });
    const [failed] = await run(processor, 'not json');
    assert.ok(failed?.error, 'the processor error is kept');
    assert.equal(await cache.get('k'), undefined);
    const [ok] = await run(processor, '{"n":"5"}');
    assert.equal(ok?.text(), '5');
    assert.equal(ok?.error, null);
  });

  it('without skip_on a failed result is cached by content, as in the reference', async () => {
    const { processor } = await cached({ key: 'k', processors: [{ mapping: 'root = this.n.number()' }] });
    const [failed] = await run(processor, 'not json');
    assert.ok(failed?.error);
    const [hit] = await run(processor, '{"n":"5"}');
    assert.equal(hit?.text(), 'not json');
    assert.equal(hit?.error, null);
  });

  it('flags the message, without running the processors, when the ttl is not a duration', async () => {
    const badTtl = await cached({ key: 'k', ttl: 'soon', processors: upper });
    const [a] = await run(badTtl.processor, 'a');
    assert.match(a?.error?.message ?? '', /failed to parse ttl expression/);
    assert.equal(a?.text(), 'a');
    assert.equal(await badTtl.cache.get('k'), undefined);
  });

  it('flags the message when the cached entry was not written by this processor', async () => {
    const cache = new MemoryCache(60_000, 60_000, { k: 'plain value' });
    const { processor } = await cached({ key: 'k', processors: upper }, cache);
    const [out] = await run(processor, 'a');
    assert.match(out?.error?.message ?? '', /not set by this processor/);
    assert.equal(out?.text(), 'a');
  });

  it('a cache that fails to read flags the message; one that fails to write only loses the caching', async () => {
    const broken = (op: 'get' | 'set'): Cache => {
      const inner = new MemoryCache(60_000, 60_000);
      return {
        get: (k) => (op === 'get' ? Promise.reject(new Error('cache down')) : inner.get(k)),
        set: (k, v) => (op === 'set' ? Promise.reject(new Error('cache full')) : inner.set(k, v)),
        add: (k, v) => inner.add(k, v),
        delete: (k) => inner.delete(k),
        close: () => inner.close(),
      };
    };
    const readFails = await cached({ key: 'k', processors: upper }, broken('get'));
    const [a] = await run(readFails.processor, 'a');
    assert.match(a?.error?.message ?? '', /cache down/);
    assert.equal(a?.text(), 'a');

    const writeFails = await cached({ key: 'k', processors: upper }, broken('set'));
    const [b] = await run(writeFails.processor, 'b');
    assert.equal(b?.error, null);
    assert.equal(b?.text(), 'B');
  });

  it('refuses a cache resource that does not exist', async () => {
    const env = createTestEnv();
    const config = normaliseComponent(
      'processor',
      { cached: { cache: 'nope', key: 'k', processors: [] } },
      { docPath: [], configPath: 'root.pipeline.processors.0' },
      { provider },
    );
    await assert.rejects(env.builder.buildProcessor(config), /cache resource 'nope' was not found/);
  });

  it('stores results in the reference format (version, count, then each length and content)', () => {
    const encoded = encodeCachedResult([bytes('ab'), bytes('')]);
    assert.deepEqual([...encoded], [0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 97, 98, 0, 0, 0, 0]);
    assert.deepEqual(decodeCachedResult(encoded).map(text), ['ab', '']);
    assert.throws(() => decodeCachedResult(bytes('xx')), /too short/);
    assert.throws(
      () => decodeCachedResult(new Uint8Array([0, 0, 0, 2, 0, 0, 0, 0])),
      /invalid format version: 2/,
    );
    assert.throws(() => decodeCachedResult(new Uint8Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 9, 1])), /ended/);
  });
});
