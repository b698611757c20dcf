import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { spec as cacheSpec } from '../../../src/components/caches/nats_kv.js';
import { spec as processorSpec } from '../../../src/components/processors/nats_kv.js';
import type { Cache, Processor } from '../../../src/engine/component.js';
import { type Batch, Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';
import { freePort, isReachable, requireService } from '../../helpers/kit.js';
import { configOf } from '../reference.js';
import { client, NATS_URL, unique } from './harness.js';

/** `${! query }`, spelled so it is not mistaken for a JavaScript template. */
const interp = (query: string) => `$\{! ${query} }`;

const text = (v: Uint8Array | undefined) => (v === undefined ? undefined : Buffer.from(v).toString());

async function buildCache(config: Record<string, unknown>): Promise<Cache> {
  const ctx = createTestContext({ path: 'root.cache_resources.0' });
  return ctx.buildCache({
    type: 'nats_kv',
    label: 'kv',
    config: configOf(cacheSpec, config),
    processors: [],
    path: 'root.cache_resources.0',
    raw: {},
  });
}

async function buildProcessor(config: Record<string, unknown>): Promise<Processor> {
  const ctx = createTestContext({ path: 'root.pipeline.processors.0' });
  return ctx.buildProcessor({
    type: 'nats_kv',
    label: '',
    config: configOf(processorSpec, config),
    processors: [],
    path: 'root.pipeline.processors.0',
    raw: {},
  });
}

async function run(processor: Processor, ...payloads: string[]): Promise<Message[]> {
  const out = await processor.process(payloads.map((p) => new Message(p)));
  return out.flat() as Batch as Message[];
}

describe('nats_kv cache and processor', () => {
  let nc: NatsConnection | null = null;
  let bucket = '';

  before(async () => {
    if (!(await isReachable('nats'))) return;
    nc = await client();
    bucket = unique('nekton_kv');
    await new Kvm(nc).create(bucket, { history: 5 });
  });

  after(async () => {
    if (!nc) return;
    await (await new Kvm(nc).open(bucket)).destroy().catch(() => undefined);
    await nc.close();
  });

  it('the cache gets, sets, adds only absent keys and deletes', async (t) => {
    if (!(await requireService(t, 'nats'))) return;
    const cache = await buildCache({ urls: [NATS_URL], bucket });
    try {
      assert.equal(await cache.get('a'), undefined);
      await cache.set('a', Buffer.from('1'));
      assert.equal(text(await cache.get('a')), '1');
      assert.equal(await cache.add('a', Buffer.from('2')), false, 'add refuses an existing key');
      assert.equal(text(await cache.get('a')), '1');
      assert.equal(await cache.add('b', Buffer.from('3')), true);
      assert.equal(text(await cache.get('b')), '3');
      await cache.delete('a');
      assert.equal(await cache.get('a'), undefined, 'a deleted key reads as absent');
      assert.equal(await cache.add('a', Buffer.from('4')), true, 'a deleted key can be added again');
      assert.equal(text(await cache.get('a')), '4');
    } finally {
      await cache.close();
    }
  });

  it('the cache names the bucket and the address when it cannot be used', async (t) => {
    if (!(await requireService(t, 'nats'))) return;
    const missing = await buildCache({ urls: [NATS_URL], bucket: unique('absent') });
    await assert.rejects(missing.get('k'), /NATS KV bucket 'absent_[0-9a-f]+' at 127\.0\.0\.1:4222: .+/);
    await missing.close();
    const port = await freePort();
    const unreachable = await buildCache({ urls: [`nats://127.0.0.1:${port}`], bucket });
    await assert.rejects(
      unreachable.get('k'),
      new RegExp(`cannot connect to NATS at nats://127\\.0\\.0\\.1:${port}`),
    );
    await unreachable.close();
  });

  it('the processor puts, gets with metadata, and flags a missing key', async (t) => {
    if (!(await requireService(t, 'nats'))) return;
    const base = { urls: [NATS_URL], bucket };
    const put = await buildProcessor({ ...base, operation: 'put', key: interp('json("id")') });
    const get = await buildProcessor({ ...base, operation: 'get', key: interp('content()') });
    try {
      const [stored] = await run(put, '{"id":"user1","name":"Ada"}');
      assert.equal(stored?.text(), '{"id":"user1","name":"Ada"}', 'put keeps the message');
      assert.equal(stored?.getMeta('nats_kv_key'), 'user1');
      assert.equal(stored?.getMeta('nats_kv_operation'), 'KeyValuePutOp');
      const revision = stored?.getMeta('nats_kv_revision');
      assert.equal(typeof revision, 'number');

      const [found, missing] = await run(get, 'user1', 'nobody');
      assert.equal(found?.text(), '{"id":"user1","name":"Ada"}');
      assert.equal(found?.getMeta('nats_kv_revision'), revision);
      assert.equal(found?.getMeta('nats_kv_bucket'), bucket);
      assert.equal(typeof found?.getMeta('nats_kv_created'), 'string');
      assert.equal(found?.error, null);
      assert.match(String(missing?.error?.message), /key not found: nobody/);
      assert.equal(missing?.text(), 'nobody', 'a failed message keeps its content');
    } finally {
      await put.close();
      await get.close();
    }
  });

  it('the processor creates, updates by revision, lists keys and history, deletes', async (t) => {
    if (!(await requireService(t, 'nats'))) return;
    const base = { urls: [NATS_URL], bucket };
    const key = unique('item');
    const create = await buildProcessor({ ...base, operation: 'create', key });
    const update = await buildProcessor({
      ...base,
      operation: 'update',
      key,
      revision: interp('@nats_kv_revision'),
    });
    const keys = await buildProcessor({ ...base, operation: 'keys', key });
    const history = await buildProcessor({ ...base, operation: 'history', key });
    const del = await buildProcessor({ ...base, operation: 'delete', key });
    const get = await buildProcessor({ ...base, operation: 'get', key });
    try {
      const [created] = await run(create, 'v1');
      assert.equal(created?.error, null);
      const [again] = await run(create, 'v1b');
      assert.ok(again?.error, 'create fails on an existing key');

      // Update with the revision just read succeeds; with a stale one it fails.
      const withRevision = created?.copy() as Message;
      withRevision.setBytes('v2');
      const [updated] = (await update.process([withRevision])).flat();
      assert.equal(updated?.error, null);
      const stale = created?.copy() as Message;
      stale.setBytes('v3');
      const [refused] = (await update.process([stale])).flat();
      assert.ok(refused?.error, 'update with a stale revision fails');

      const [listed] = await run(keys, '');
      assert.deepEqual(listed?.structured(), [key]);

      const [hist] = await run(history, '');
      const entries = hist?.structured() as { value: string; operation: string; revision: number }[];
      assert.deepEqual(
        entries.map((e) => e.value),
        ['v1', 'v2'],
      );
      assert.equal(entries[0]?.operation, 'KeyValuePutOp');

      const [deleted] = await run(del, '');
      assert.equal(deleted?.getMeta('nats_kv_operation'), 'KeyValueDeleteOp');
      const [gone] = await run(get, '');
      assert.ok(gone?.error, 'a deleted key is not found');
    } finally {
      for (const p of [create, update, keys, history, del, get]) await p.close();
    }
  });

  it('lints revision against the operation and needs a key', () => {
    const lint = processorSpec.lint as (c: unknown) => string[];
    const base = configOf(processorSpec, { urls: [NATS_URL], bucket: 'b', key: 'k' });
    assert.deepEqual(lint({ ...base, operation: 'update' }), [
      "'revision' must be set when operation is 'update'",
    ]);
    assert.deepEqual(lint({ ...base, operation: 'get', revision: '3' }), [
      "'revision' cannot be set when operation is 'get'",
    ]);
    assert.deepEqual(lint({ ...base, operation: 'get', key: '' }), [
      "'key' must be set to a non-empty string",
    ]);
  });
});
