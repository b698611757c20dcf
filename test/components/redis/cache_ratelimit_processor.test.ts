// The redis cache, rate limit and processor against the local Redis.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { registry } from '../../../src/components/registry.js';
import { normaliseComponent } from '../../../src/config/normalise.js';
import { type ConfigKind, schemaProvider } from '../../../src/config/schema.js';
import type { Cache, Processor, RateLimit } from '../../../src/engine/component.js';
import { Message } from '../../../src/message/message.js';
import { createTestEnv } from '../../helpers/context.js';
import { requireService } from '../../helpers/kit.js';
import { Admin, REDIS_URL, uniqueName } from './helpers.js';

const provider = schemaProvider(registry);
const config = (kind: ConfigKind, raw: Record<string, unknown>) =>
  normaliseComponent(kind, raw, { docPath: [], configPath: `root.${kind}` }, { provider });
const text = (bytes: Uint8Array | undefined) => (bytes ? Buffer.from(bytes).toString() : undefined);
const bytes = (s: string) => new TextEncoder().encode(s);

let admin: Admin;

describe('redis cache, rate limit and processor', () => {
  before(async () => {
    admin = await Admin.open().catch(() => null as unknown as Admin);
  });
  after(async () => {
    await admin?.cleanup();
  });

  it('cache: get/set/add/delete under a prefix, with TTLs', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    const prefix = `${uniqueName('cache')}:`;
    admin.track(`${prefix}a`, `${prefix}b`);
    const env = createTestEnv();
    const cache = (await env.builder.buildCache(
      config('cache', { redis: { url: REDIS_URL, prefix, default_ttl: '1h' } }),
    )) as Cache;
    try {
      assert.equal(await cache.get('a'), undefined);
      await cache.set('a', bytes('one'));
      assert.equal(text(await cache.get('a')), 'one');
      assert.equal(await admin.send('GET', `${prefix}a`), 'one', 'stored under the prefix');
      const ttl = await admin.send<number>('PTTL', `${prefix}a`);
      assert.ok(ttl > 3_500_000 && ttl <= 3_600_000, `default_ttl applied, got ${ttl}`);
      assert.equal(await cache.add('a', bytes('two')), false);
      assert.equal(text(await cache.get('a')), 'one');
      assert.equal(await cache.add('b', bytes('bee'), 5000), true);
      const ttlB = await admin.send<number>('PTTL', `${prefix}b`);
      assert.ok(ttlB > 0 && ttlB <= 5000, `explicit ttl applied, got ${ttlB}`);
      await cache.delete('a');
      assert.equal(await cache.get('a'), undefined);
    } finally {
      await cache.close();
    }
  });

  it('cache: a closed port fails the operation with the address, after the retries', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    const env = createTestEnv();
    const cache = (await env.builder.buildCache(
      config('cache', {
        redis: {
          url: 'redis://127.0.0.1:1',
          retries: { initial_interval: '10ms', max_interval: '20ms', max_elapsed_time: '100ms' },
        },
      }),
    )) as Cache;
    try {
      await assert.rejects(cache.get('x'), /redis:\/\/127\.0\.0\.1:1.*(ECONNREFUSED|refused)/);
    } finally {
      await cache.close();
    }
  });

  it('a failover kind without a master fails to build, naming master', async () => {
    const env = createTestEnv();
    await assert.rejects(
      env.builder.buildCache(config('cache', { redis: { url: REDIS_URL, kind: 'failover' } })),
      /master: kind failover needs the name of the master/,
    );
  });

  it('rate limit: allows count accesses per interval, shared through the key', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    const key = uniqueName('rl');
    admin.track(key);
    const env = createTestEnv();
    const build = async () =>
      (await env.builder.buildRateLimit(
        config('rate_limit', { redis: { url: REDIS_URL, key, count: 3, interval: '10s' } }),
      )) as RateLimit;
    const one = await build();
    const two = await build();
    try {
      assert.equal(await one.access(), 0);
      assert.equal(await two.access(), 0);
      assert.equal(await one.access(), 0);
      const wait = await two.access();
      assert.ok(wait > 0 && wait <= 10_000, `the fourth access waits for the window, got ${wait}`);
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('processor: runs command + args_mapping and replaces the content with the reply', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    const key = uniqueName('counter');
    admin.track(key);
    const env = createTestEnv();
    const proc = (await env.builder.buildProcessor(
      config('processor', {
        redis: { url: REDIS_URL, command: 'incrby', args_mapping: `root = [ "${key}", this.n ]` },
      }),
    )) as Processor;
    try {
      const [out] = await proc.process([new Message('{"n":2}'), new Message('{"n":5}')]);
      assert.deepEqual(
        out?.map((m) => m.text()),
        ['2', '7'],
      );
      assert.equal(await admin.send('GET', key), '7');
    } finally {
      await proc.close();
    }
  });

  it('processor: arrays come back structured, nil and server errors flag the message', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    const key = uniqueName('list');
    admin.track(key);
    await admin.send('RPUSH', key, 'a', 'b');
    const env = createTestEnv();
    const proc = (await env.builder.buildProcessor(
      config('processor', {
        redis: {
          url: REDIS_URL,
          // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation
          command: '${! @cmd }',
          args_mapping: 'root = this',
          retries: 0,
        },
      }),
    )) as Processor;
    const msg = (cmd: string, args: unknown[]) => {
      const m = new Message(JSON.stringify(args));
      m.setMeta('cmd', cmd);
      return m;
    };
    try {
      const [out] = await proc.process([
        msg('lrange', [key, 0, -1]),
        msg('get', [`${key}:missing`]),
        msg('incr', [key]),
      ]);
      assert.deepEqual(out?.[0]?.structured(), ['a', 'b']);
      assert.equal(out?.[0]?.error, null);
      assert.match(String(out?.[1]?.error?.message), /redis: nil/);
      assert.match(String(out?.[2]?.error?.message), /WRONGTYPE/);
    } finally {
      await proc.close();
    }
  });

  it('processor: the deprecated operator form (sadd, scard)', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    const key = uniqueName('set');
    admin.track(key);
    const env = createTestEnv();
    const build = async (operator: string) =>
      (await env.builder.buildProcessor(
        config('processor', { redis: { url: REDIS_URL, operator, key } }),
      )) as Processor;
    const sadd = await build('sadd');
    const scard = await build('scard');
    try {
      const [added] = await sadd.process([new Message('x'), new Message('y'), new Message('x')]);
      assert.deepEqual(
        added?.map((m) => m.text()),
        ['1', '1', '0'],
      );
      const [card] = await scard.process([new Message('')]);
      assert.equal(card?.[0]?.text(), '2');
    } finally {
      await sadd.close();
      await scard.close();
    }
  });
});
