// `kind: cluster` and `kind: failover` on topologies the test starts itself: a 3-master cluster
// (keys on different nodes), and a master + replica + sentinel whose master is killed mid-stream.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { registry } from '../../../src/components/registry.js';
import { normaliseComponent } from '../../../src/config/normalise.js';
import { schemaProvider } from '../../../src/config/schema.js';
import type { Cache, Processor } from '../../../src/engine/component.js';
import { Message } from '../../../src/message/message.js';
import { createTestEnv } from '../../helpers/context.js';
import { waitFor } from '../../helpers/kit.js';
import {
  RedisClusterTopology,
  RedisFailoverTopology,
  redisCli,
  requireRedisBinaries,
} from '../../helpers/redis_topologies.js';
import { startStream } from './helpers.js';

const provider = schemaProvider(registry);
const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined) => (b ? Buffer.from(b).toString() : undefined);

/** Keys from `candidates` owned by `count` different masters. */
async function keysOnDifferentNodes(cluster: RedisClusterTopology, candidates: string[], count: number) {
  const byNode = new Map<number, string>();
  for (const key of candidates) {
    const owner = await cluster.ownerOf(key);
    if (!byNode.has(owner)) byNode.set(owner, key);
    if (byNode.size === count) return [...byNode.entries()].map(([port, k]) => ({ port, key: k }));
  }
  throw new Error(`no ${count} candidates on different nodes`);
}

describe('redis kind: cluster', () => {
  let cluster: RedisClusterTopology | null = null;
  before(async () => {
    cluster = await RedisClusterTopology.start(3).catch(() => null);
  });
  after(async () => {
    await cluster?.dispose();
  });

  it('redis_list: output spreads keys over the masters, input pops one back, nothing lost', async (t) => {
    if (!(await requireRedisBinaries(t))) return;
    assert.ok(cluster, 'the cluster started');
    const c = cluster;
    const candidates = Array.from({ length: 40 }, (_, i) => `list-${i}`);
    const [a, b, dest] = await keysOnDifferentNodes(c, candidates, 3);
    assert.ok(a && b && dest);
    const write = await startStream(`
input:
  generate:
    count: 20
    interval: ''
    mapping: 'root.n = counter()'
output:
  redis_list:
    url: ${c.url}
    kind: cluster
    key: '\${! if this.n % 2 == 0 { "${a.key}" } else { "${b.key}" } }'
`);
    try {
      await write.done;
    } finally {
      await write.stop();
    }
    // Each list is on its own node: asked directly, the owners hold 10 each.
    assert.equal(await redisCli(a.port, 'LLEN', a.key), '10');
    assert.equal(await redisCli(b.port, 'LLEN', b.key), '10');
    const move = await startStream(`
input:
  redis_list:
    url: ${c.url}
    kind: cluster
    key: ${a.key}
    timeout: 100ms
output:
  redis_list:
    url: ${c.url}
    kind: cluster
    key: ${dest.key}
`);
    try {
      await waitFor(async () => (await redisCli(dest.port, 'LLEN', dest.key)) === '10', {
        message: '10 items moved to the third node',
      });
      assert.equal(await redisCli(a.port, 'LLEN', a.key), '0');
      const moved = (await redisCli(dest.port, 'LRANGE', dest.key, '0', '-1')).split('\n');
      assert.deepEqual(
        moved.map((m) => JSON.parse(m).n),
        [2, 4, 6, 8, 10, 12, 14, 16, 18, 20],
      );
    } finally {
      await move.stop();
    }
  });

  it('redis cache: set/get/add/delete of keys owned by different masters', async (t) => {
    if (!(await requireRedisBinaries(t))) return;
    assert.ok(cluster, 'the cluster started');
    const keys = await keysOnDifferentNodes(
      cluster,
      Array.from({ length: 40 }, (_, i) => `c${i}`),
      3,
    );
    const env = createTestEnv();
    const raw = { redis: { url: cluster.url, kind: 'cluster', prefix: 'cache:' } };
    const cache = (await env.builder.buildCache(
      normaliseComponent('cache', raw, { docPath: [], configPath: 'root.cache' }, { provider }),
    )) as Cache;
    try {
      // The prefix changes the slot, so owners are looked up for the stored names.
      for (const { key } of keys) await cache.set(key, bytes(`value of ${key}`));
      const owners = new Set<number>();
      for (const { key } of keys) {
        assert.equal(text(await cache.get(key)), `value of ${key}`);
        const owner = await cluster.ownerOf(`cache:${key}`);
        owners.add(owner);
        assert.equal(await redisCli(owner, 'GET', `cache:${key}`), `value of ${key}`);
      }
      assert.ok(owners.size >= 2, `stored on ${owners.size} nodes`);
      const first = keys[0]?.key as string;
      assert.equal(await cache.add(first, bytes('again')), false);
      await cache.delete(first);
      assert.equal(await cache.get(first), undefined);
      assert.equal(await cache.add(first, bytes('again')), true);
    } finally {
      await cache.close();
    }
  });

  it('redis_scan reads the keys of every master; redis_streams in/out on hash-tagged streams', async (t) => {
    if (!(await requireRedisBinaries(t))) return;
    assert.ok(cluster, 'the cluster started');
    const c = cluster;
    const keys = Array.from({ length: 12 }, (_, i) => `scan-${i}`);
    const owners = new Set<number>();
    for (const key of keys) {
      const owner = await c.ownerOf(key);
      owners.add(owner);
      await redisCli(owner, 'SET', key, `v-${key}`);
    }
    assert.equal(owners.size, 3, 'the keys are spread over the three masters');
    const scan = await startStream(`
input:
  redis_scan:
    url: ${c.url}
    kind: cluster
    match: 'scan-*'
output:
  redis_streams:
    url: ${c.url}
    kind: cluster
    stream: '{app}.scanned'
`);
    try {
      await scan.done;
    } finally {
      await scan.stop();
    }
    const streamOwner = await c.ownerOf('{app}.scanned');
    const scanned = (await redisCli(streamOwner, 'XRANGE', '{app}.scanned', '-', '+'))
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l).key as string)
      .sort();
    assert.deepEqual(scanned, [...keys].sort());

    // Two streams with one hash tag share a slot: one XREADGROUP reads both.
    await redisCli(streamOwner, 'XADD', '{app}.other', '*', 'body', '{"key":"extra"}');
    const read = await startStream(`
input:
  redis_streams:
    url: ${c.url}
    kind: cluster
    streams: [ '{app}.scanned', '{app}.other' ]
    consumer_group: g
    start_from_oldest: true
    timeout: 100ms
output:
  redis_list:
    url: ${c.url}
    kind: cluster
    key: '{app}.all'
`);
    try {
      await waitFor(async () => (await redisCli(streamOwner, 'LLEN', '{app}.all')) === '13', {
        message: 'both streams read',
      });
      await waitFor(
        async () => (await redisCli(streamOwner, 'XPENDING', '{app}.scanned', 'g')).startsWith('0'),
        {
          message: 'every entry acknowledged',
        },
      );
    } finally {
      await read.stop();
    }
  });

  it('redis_script: keys of one slot run; keys of two slots fail naming keys_mapping', async (t) => {
    if (!(await requireRedisBinaries(t))) return;
    assert.ok(cluster, 'the cluster started');
    const raw = {
      redis_script: {
        url: cluster.url,
        kind: 'cluster',
        script: "redis.call('set', KEYS[1], ARGV[1]); redis.call('set', KEYS[2], ARGV[1]); return 1",
        args_mapping: 'root = [ this.v ]',
        keys_mapping: 'root = this.keys',
        retries: 0,
      },
    };
    const env = createTestEnv();
    const processor = (await env.builder.buildProcessor(
      normaliseComponent('processor', raw, { docPath: [], configPath: 'root.processor' }, { provider }),
    )) as Processor;
    try {
      const msg = (keys: string[]) => new Message(bytes(JSON.stringify({ v: 'x', keys })));
      const [[ok]] = (await processor.process([msg(['{u1}.a', '{u1}.b'])])) as Message[][];
      assert.equal(ok?.error ?? null, null);
      assert.equal(await redisCli(await cluster.ownerOf('{u1}.b'), 'GET', '{u1}.b'), 'x');
      const [[bad]] = (await processor.process([msg(['list-0', 'list-1'])])) as Message[][];
      assert.match(String(bad?.error), /keys_mapping: CROSSSLOT.*one hash tag/);
    } finally {
      await processor.close();
    }
  });
});

describe('redis kind: failover', () => {
  it('a master name the sentinels do not know is reported naming master', async (t) => {
    if (!(await requireRedisBinaries(t))) return;
    const failover = await RedisFailoverTopology.start('mymaster');
    const run = await startStream(`
input:
  generate: { count: 1, interval: '', mapping: 'root = 1' }
output:
  redis_list:
    url: ${failover.url}
    kind: failover
    master: nosuchmaster
    key: k
`);
    try {
      const error = await waitFor(() => run.stream.statuses().find((s) => s.error)?.error, {
        message: 'the connect error',
      });
      assert.match(error, /master: the sentinels know no master named 'nosuchmaster'/);
    } finally {
      await run.stop();
      await failover.dispose();
    }
  });

  it('redis_streams output keeps delivering after the master is killed and the replica promoted', async (t) => {
    if (!(await requireRedisBinaries(t))) return;
    const failover = await RedisFailoverTopology.start('mymaster');
    const total = 150;
    const run = await startStream(`
input:
  generate:
    count: ${total}
    interval: 20ms
    mapping: 'root.n = counter()'
output:
  redis_streams:
    url: ${failover.url}
    kind: failover
    master: mymaster
    stream: events
    max_in_flight: 1
`);
    try {
      const oldMaster = failover.master.port;
      await waitFor(async () => Number(await redisCli(oldMaster, 'XLEN', 'events')) >= 20, {
        message: 'some entries before the kill',
      });
      await failover.killMasterAndWaitForPromotion();
      const newMaster = failover.replica.port;
      const seen = await waitFor(
        async () => {
          const ns = new Set(
            (await redisCli(newMaster, 'XRANGE', 'events', '-', '+'))
              .split('\n')
              .filter((l) => l.startsWith('{'))
              .map((l) => JSON.parse(l).n as number),
          );
          return ns.size === total ? ns : null;
        },
        { message: `all ${total} entries on the promoted replica`, timeoutMs: 60_000 },
      );
      assert.deepEqual(
        [...seen].sort((x, y) => x - y),
        Array.from({ length: total }, (_, i) => i + 1),
      );
      await run.done;
    } finally {
      await run.stop();
      await failover.dispose();
    }
  });
});
