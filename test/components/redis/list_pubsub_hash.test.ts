// redis_list, redis_pubsub and redis_hash against the local Redis, through the engine.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RedisReply } from '../../../src/components/redis/client.js';
import { requireService, waitFor } from '../../helpers/kit.js';
import { Admin, REDIS_URL, startStream, uniqueName } from './helpers.js';

let admin: Admin;

describe('redis_list, redis_pubsub, redis_hash', () => {
  before(async () => {
    admin = await Admin.open().catch(() => null as unknown as Admin);
  });
  after(async () => {
    await admin?.cleanup();
  });

  it('redis_list: pops in order (blpop) and pushes to another list, emptying the source', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    const source = uniqueName('list-src');
    const dest = uniqueName('list-dst');
    admin.track(source, dest);
    await admin.send('RPUSH', source, 'a', 'b', 'c', 'd');
    const run = await startStream(`
input:
  redis_list:
    url: ${REDIS_URL}
    key: '${source}'
    timeout: 100ms
output:
  redis_list:
    url: ${REDIS_URL}
    key: '${dest}'
`);
    try {
      await waitFor(async () => (await admin.send<number>('LLEN', dest)) === 4, { message: '4 items' });
      assert.deepEqual(await admin.send('LRANGE', dest, '0', '-1'), ['a', 'b', 'c', 'd']);
      assert.equal(await admin.send<number>('LLEN', source), 0);
    } finally {
      await run.stop();
    }
  });

  it('redis_list: brpop and lpush with an interpolated key', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    const source = uniqueName('list-src');
    const dest = uniqueName('list-dst');
    admin.track(source, `${dest}:x`, `${dest}:y`);
    await admin.send('RPUSH', source, 'x1', 'y1', 'x2');
    const run = await startStream(`
input:
  redis_list:
    url: ${REDIS_URL}
    key: '${source}'
    command: brpop
    timeout: 100ms
output:
  redis_list:
    url: ${REDIS_URL}
    key: '${dest}:\${! content().string().slice(0, 1) }'
    command: lpush
`);
    try {
      await waitFor(async () => (await admin.send<number>('LLEN', `${dest}:x`)) === 2, {
        message: '3 items',
      });
      // brpop takes x2 first, lpush puts later items at the head.
      assert.deepEqual(await admin.send('LRANGE', `${dest}:x`, '0', '-1'), ['x1', 'x2']);
      assert.deepEqual(await admin.send('LRANGE', `${dest}:y`, '0', '-1'), ['y1']);
    } finally {
      await run.stop();
    }
  });

  it('redis_pubsub: receives published messages by pattern with the channel as metadata', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    const prefix = uniqueName('chan');
    const dest = uniqueName('pubsub-dst');
    admin.track(dest);
    const run = await startStream(`
input:
  redis_pubsub:
    url: ${REDIS_URL}
    channels: [ '${prefix}.*' ]
    use_patterns: true
pipeline:
  processors:
    - mapping: 'root = content().string() + "|" + @redis_pubsub_channel'
output:
  redis_list:
    url: ${REDIS_URL}
    key: '${dest}'
`);
    try {
      await waitFor(() => run.stream.isReady(), { message: 'subscribed' });
      // PUBLISH answers how many subscribers got it: wait until our pattern subscription is live.
      await waitFor(async () => (await admin.send<number>('PUBLISH', `${prefix}.warmup`, 'w')) > 0, {
        message: 'a subscriber',
      });
      await admin.send('PUBLISH', `${prefix}.a`, 'hello');
      await admin.send('PUBLISH', `${prefix}.b`, 'world');
      await admin.send('PUBLISH', `other.${prefix}`, 'not matched');
      await waitFor(
        async () => {
          const items = await admin.send<string[]>('LRANGE', dest, '0', '-1');
          return items.includes(`world|${prefix}.b`);
        },
        { message: '2 messages' },
      );
      const items = (await admin.send<string[]>('LRANGE', dest, '0', '-1')).filter(
        (i) => !i.startsWith('w|'),
      );
      assert.deepEqual(items, [`hello|${prefix}.a`, `world|${prefix}.b`]);
    } finally {
      await run.stop();
    }
  });

  it('redis_pubsub output: publishes to an interpolated channel', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    const channel = uniqueName('pub');
    const received: string[] = [];
    await admin.connection.send(['PING']);
    const { RedisConnection } = await import('../../../src/components/redis/client.js');
    const { redisTarget } = await import('../../../src/components/redis/client.js');
    const { pino } = await import('pino');
    const target = await redisTarget({
      url: REDIS_URL,
      kind: 'simple',
      master: '',
      client_name: 'nekton-test-sub',
      tls: {
        enabled: false,
        skip_cert_verify: false,
        enable_renegotiation: false,
        root_cas: '',
        root_cas_file: '',
        client_certs: [],
      },
    });
    const subscriber = await RedisConnection.open(target, pino({ level: 'silent' }));
    await subscriber.subscribe([`${channel}.even`, `${channel}.odd`], false, (payload, chan) => {
      received.push(`${chan.toString().slice(channel.length + 1)}:${payload.toString()}`);
    });
    const run = await startStream(`
input:
  generate:
    count: 4
    interval: ''
    mapping: 'root = counter()'
output:
  redis_pubsub:
    url: ${REDIS_URL}
    channel: '${channel}.\${! if content().number() % 2 == 0 { "even" } else { "odd" } }'
`);
    try {
      await waitFor(() => received.length === 4, { message: '4 messages' });
      assert.deepEqual(received.sort(), ['even:2', 'even:4', 'odd:1', 'odd:3']);
    } finally {
      await run.stop();
      await subscriber.close();
    }
  });

  it('redis_hash: sets fields from metadata, the JSON object and interpolated fields', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    const prefix = uniqueName('hash');
    admin.track(`${prefix}:1`, `${prefix}:2`);
    const run = await startStream(`
input:
  generate:
    count: 2
    interval: ''
    mapping: |
      root = {"id": counter(), "name": "n", "ok": true, "tags": ["a"]}
      meta origin = "gen"
output:
  redis_hash:
    url: ${REDIS_URL}
    key: '${prefix}:\${! this.id }'
    walk_metadata: true
    walk_json_object: true
    fields:
      name: 'overridden-\${! this.id }'
      source: nekton
`);
    try {
      await waitFor(async () => (await admin.send<number>('EXISTS', `${prefix}:1`, `${prefix}:2`)) === 2, {
        message: 'both hashes',
      });
      const flat = await admin.send<RedisReply[]>('HGETALL', `${prefix}:2`);
      const hash: Record<string, string> = {};
      for (let i = 0; i < flat.length; i += 2) hash[String(flat[i])] = String(flat[i + 1]);
      assert.deepEqual(hash, {
        origin: 'gen',
        id: '2',
        name: 'overridden-2',
        ok: '1',
        tags: '["a"]',
        source: 'nekton',
      });
    } finally {
      await run.stop();
    }
  });
});
