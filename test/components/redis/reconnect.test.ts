// Redis components when the server goes away: a private redis-server is killed (SIGKILL) and
// restarted under running streams, connections of the shared server are killed by client name,
// and bad addresses and credentials are reported without crashing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RedisConnection, RedisReply } from '../../../src/components/redis/client.js';
import { registry } from '../../../src/components/registry.js';
import { normaliseComponent } from '../../../src/config/normalise.js';
import { type ConfigKind, schemaProvider } from '../../../src/config/schema.js';
import type { Cache, Processor, RateLimit } from '../../../src/engine/component.js';
import { Message } from '../../../src/message/message.js';
import { createTestEnv } from '../../helpers/context.js';
import { requireService, waitFor } from '../../helpers/kit.js';
import {
  Admin,
  PrivateRedisServer,
  REDIS_URL,
  type RunningStream,
  startStream,
  uniqueName,
} from './helpers.js';

const provider = schemaProvider(registry);
const config = (kind: ConfigKind, raw: Record<string, unknown>) =>
  normaliseComponent(kind, raw, { docPath: [], configPath: `root.${kind}` }, { provider });

/** Waits until the components of the stream (or only its input) report a lost connection, and returns the errors. */
async function outage(run: RunningStream, which: 'all' | 'input' = 'all'): Promise<string[]> {
  const statuses = await waitFor(
    () => {
      const st = run.stream.statuses().filter((s) => which === 'all' || s.path.startsWith('input'));
      return st.every((s) => !s.connected && s.error) ? st : null;
    },
    { message: 'the outage on the status' },
  );
  assert.equal(run.stream.isReady(), false);
  assert.equal(run.stream.active, true, 'still running, retrying');
  return (statuses ?? []).map((s) => s.error ?? '');
}

let admin: Admin;

describe('redis reconnects', () => {
  before(async () => {
    admin = await Admin.open().catch(() => null as unknown as Admin);
  });
  after(async () => {
    await admin?.cleanup();
  });

  it('redis_streams: a server killed and restarted mid-stream loses nothing; /ready follows', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    const server = await PrivateRedisServer.start();
    let direct: RedisConnection | null = await server.admin();
    let run: RunningStream | null = null;
    try {
      for (let i = 0; i < 100; i++) await direct.send(['XADD', 'src', '*', 'body', `k${i}`]);
      run = await startStream(`
input:
  redis_streams:
    url: ${server.url}
    streams: [ src ]
    consumer_group: g
    client_id: w1
    commit_period: 20ms
    timeout: 100ms
    limit: 5
pipeline:
  processors:
    - sleep: { duration: 2ms }
output:
  redis_streams:
    url: ${server.url}
    stream: dst
`);
      const d = direct;
      await waitFor(async () => (await d.send<number>(['XLEN', 'dst'])) > 10, { message: 'some delivered' });
      const atKill = await d.send<number>(['XLEN', 'dst']);
      assert.ok(atKill < 100, `killed mid-stream (${atKill} of 100 through)`);
      await direct.close();
      await server.kill();
      const errors = await outage(run);
      for (const e of errors) assert.match(e, new RegExp(`127\\.0\\.0\\.1:${server.port}`));
      await server.restart();
      direct = await server.admin();
      const live = direct;
      for (let i = 100; i < 150; i++) await live.send(['XADD', 'src', '*', 'body', `k${i}`]);
      const bodies = async () => {
        const entries = await live.send<string[][]>(['XRANGE', 'dst', '-', '+']);
        return new Set(entries.map((e) => String((e[1] as unknown as string[])[1])));
      };
      await waitFor(async () => (await bodies()).size === 150, {
        message: 'all 150 delivered after the restart',
        timeoutMs: 15_000,
      });
      await waitFor(
        async () => {
          const summary = await live.send<RedisReply[]>(['XPENDING', 'src', 'g']);
          return Number(summary[0]) === 0;
        },
        { message: 'nothing pending' },
      );
      await waitFor(() => run?.stream.isReady(), { message: 'ready again' });
    } finally {
      await run?.stop();
      await direct?.close();
      await server.dispose();
    }
  });

  it('an idle output reports a lost server on its status and reconnects without a write', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    const server = await PrivateRedisServer.start();
    let run: RunningStream | null = null;
    try {
      // The input never produces anything, so the output never writes.
      run = await startStream(`
input:
  generate:
    interval: 1h
    mapping: root = "never"
output:
  redis_streams:
    url: ${server.url}
    stream: idle
`);
      const output = () => run!.stream.statuses().find((s) => s.path.startsWith('output'));
      await waitFor(() => output()?.connected === true, { message: 'the output connected' });
      await server.kill();
      const lost = await waitFor(() => (output()?.connected === false ? output() : null), {
        message: 'the outage on the idle output',
      });
      assert.match(lost?.error ?? '', new RegExp(`127\\.0\\.0\\.1:${server.port}`));
      assert.equal(run.stream.isReady(), false);
      await server.restart();
      await waitFor(() => output()?.connected === true, {
        message: 'connected again without any write',
        timeoutMs: 15_000,
      });
      assert.equal(run.stream.isReady(), true);
    } finally {
      await run?.stop();
      await server.dispose();
    }
  });

  it('redis_list and redis_pubsub inputs reconnect after a server restart; /ready follows', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    const server = await PrivateRedisServer.start();
    let direct: RedisConnection | null = null;
    const runs: RunningStream[] = [];
    try {
      const pipe = (input: string, dest: string) => `
input:
  ${input}
output:
  redis_list:
    url: ${server.url}
    key: ${dest}
`;
      const list = await startStream(
        pipe(`redis_list: { url: '${server.url}', key: src, timeout: 100ms }`, 'from-list'),
      );
      runs.push(list);
      const sub = await startStream(
        pipe(`redis_pubsub: { url: '${server.url}', channels: [ chan ] }`, 'from-pubsub'),
      );
      runs.push(sub);
      await waitFor(() => list.stream.isReady() && sub.stream.isReady(), { message: 'both ready' });
      await server.kill();
      for (const run of runs) {
        const errors = await outage(run, 'input');
        assert.match(errors[0] ?? '', new RegExp(`redis://127\\.0\\.0\\.1:${server.port}`));
      }
      await server.restart();
      direct = await server.admin();
      const d = direct;
      await waitFor(() => list.stream.isReady() && sub.stream.isReady(), {
        message: 'both ready again',
        timeoutMs: 15_000,
      });
      await d.send(['RPUSH', 'src', 'a', 'b', 'c']);
      await waitFor(
        async () => {
          await d.send(['PUBLISH', 'chan', 'p']);
          return (await d.send<number>(['LLEN', 'from-pubsub'])) > 0;
        },
        { message: 'the pubsub input subscribed again' },
      );
      await waitFor(async () => (await d.send<number>(['LLEN', 'from-list'])) === 3, {
        message: 'the list items',
      });
      assert.deepEqual(await d.send(['LRANGE', 'from-list', '0', '-1']), ['a', 'b', 'c']);
    } finally {
      for (const run of runs) await run.stop();
      await direct?.close();
      await server.dispose();
    }
  });

  it('cache, rate limit and processor open a new connection after theirs was killed', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    const clientName = `nekton-test-session-${process.pid}`;
    const key = uniqueName('session');
    const rlKey = uniqueName('session-rl');
    admin.track(`${key}:c`, `${key}:p`, rlKey);
    const env = createTestEnv();
    const common = { url: REDIS_URL, client_name: clientName };
    const cache = (await env.builder.buildCache(
      config('cache', {
        redis: {
          ...common,
          prefix: `${key}:`,
          retries: { initial_interval: '10ms', max_interval: '50ms', max_elapsed_time: '2s' },
        },
      }),
    )) as Cache;
    const proc = (await env.builder.buildProcessor(
      config('processor', {
        redis: { ...common, command: 'incr', args_mapping: `root = [ "${key}:p" ]`, retries: 3 },
      }),
    )) as Processor;
    const limit = (await env.builder.buildRateLimit(
      config('rate_limit', { redis: { ...common, key: rlKey, count: 100, interval: '10s' } }),
    )) as RateLimit;
    try {
      await cache.set('c', new TextEncoder().encode('v1'));
      assert.equal((await proc.process([new Message('')]))[0]?.[0]?.text(), '1');
      assert.equal(await limit.access(), 0);
      assert.ok((await admin.killClients(clientName)) >= 3, 'killed the three connections');
      // The rate limit may report one failed access (it cannot retry itself); then it is back.
      await limit.access().catch(() => undefined);
      assert.equal(await limit.access(), 0);
      assert.equal(Buffer.from((await cache.get('c')) ?? []).toString(), 'v1');
      const [out] = await proc.process([new Message('')]);
      assert.equal(out?.[0]?.error, null, 'the processor retried on a new connection');
      assert.equal(out?.[0]?.text(), '2');
    } finally {
      await cache.close();
      await proc.close();
      await limit.close();
    }
  });

  it('reports wrong credentials and a closed port clearly, hiding the password, without crashing', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    const run = await startStream(`
input:
  redis_list:
    url: redis://nobody:s3cret@127.0.0.1:6379
    key: never
output:
  redis_hash:
    url: redis://127.0.0.1:1
    key: never
`);
    try {
      const [input, output] = await outage(run);
      assert.match(input ?? '', /redis:\/\/nobody:!!!SECRET_SCRUBBED!!!@127\.0\.0\.1:6379/);
      assert.match(input ?? '', /WRONGPASS|AUTH|password/i);
      assert.doesNotMatch(input ?? '', /s3cret/);
      assert.match(output ?? '', /redis:\/\/127\.0\.0\.1:1.*(ECONNREFUSED|refused)/i);
    } finally {
      await run.stop();
    }
  });
});
