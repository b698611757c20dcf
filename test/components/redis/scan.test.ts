// The redis_scan input against the local Redis: keys and values out, a nack replayed, a lost
// connection resumed from the scan's cursor, and the end of the input once the scan is done.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { requireService, waitFor } from '../../helpers/kit.js';
import { Admin, PrivateRedisServer, REDIS_URL, readStream, startStream, uniqueName } from './helpers.js';

let admin: Admin;

describe('redis_scan', () => {
  before(async () => {
    admin = await Admin.open().catch(() => null as unknown as Admin);
  });
  after(async () => {
    await admin?.cleanup();
  });

  it('emits each matching string key as {key, value}, skips other types, then ends', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    const prefix = uniqueName('scan');
    const dest = uniqueName('scan-dst');
    const keys = Array.from({ length: 30 }, (_, i) => `${prefix}:k${i}`);
    admin.track(...keys, `${prefix}:list`, `${prefix}-other`, dest);
    for (const [i, k] of keys.entries()) await admin.send('SET', k, `v${i}`);
    await admin.send('RPUSH', `${prefix}:list`, 'not a string');
    await admin.send('SET', `${prefix}-other`, 'not matched');
    const run = await startStream(`
input:
  redis_scan:
    url: ${REDIS_URL}
    match: '${prefix}:*'
output:
  redis_list:
    url: ${REDIS_URL}
    key: '${dest}'
`);
    try {
      // The input ends after the scan, and so does the stream.
      await run.done;
      const items = (await admin.send<string[]>('LRANGE', dest, '0', '-1')).map((s) => JSON.parse(s));
      const byKey = new Map(items.map((o: { key: string; value: string }) => [o.key, o.value]));
      assert.equal(byKey.size, 30);
      for (const [i, k] of keys.entries()) assert.equal(byKey.get(k), `v${i}`);
      assert.deepEqual(Object.keys(items[0]).sort(), ['key', 'value']);
    } finally {
      await run.stop();
    }
  });

  it('delivers a nacked message again (auto_replay_nacks)', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    const prefix = uniqueName('scan-nack');
    const dest = uniqueName('scan-nack-dst');
    const keys = Array.from({ length: 5 }, (_, i) => `${prefix}:k${i}`);
    admin.track(...keys, dest);
    for (const k of keys) await admin.send('SET', k, 'x');
    const counter = `fail-${uniqueName('c')}`;
    // XADD with id 0-0 always fails: the first write of k2 fails, is nacked and replayed.
    const run = await startStream(`
input:
  redis_scan:
    url: ${REDIS_URL}
    match: '${prefix}:*'
pipeline:
  processors:
    - mapping: 'root = this.key'
output:
  redis_streams:
    url: ${REDIS_URL}
    stream: '${dest}'
    id: '\${! if content().string() == "${prefix}:k2" && count("${counter}") == 1 { "0-0" } else { "*" } }'
`);
    try {
      await run.done;
      const bodies = (await readStream(admin, dest)).map(([, f]) => f.body);
      assert.deepEqual([...bodies].sort(), [...keys].sort(), 'every key once, the failed one too');
    } finally {
      await run.stop();
    }
  });

  it('resumes the scan after its connection is killed, delivering every key', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    const prefix = uniqueName('scan-kill');
    const dest = uniqueName('scan-kill-dst');
    const name = `nekton-scan-${process.pid}-${Date.now()}`;
    const keys = Array.from({ length: 200 }, (_, i) => `${prefix}:k${i}`);
    admin.track(...keys, dest);
    for (let i = 0; i < keys.length; i += 50)
      await admin.send('MSET', ...keys.slice(i, i + 50).flatMap((k) => [k, k]));
    const run = await startStream(`
input:
  redis_scan:
    url: ${REDIS_URL}
    client_name: ${name}
    match: '${prefix}:*'
pipeline:
  processors:
    - sleep: { duration: 3ms }
    - mapping: 'root = this.value'
output:
  redis_list:
    url: ${REDIS_URL}
    key: '${dest}'
`);
    try {
      await waitFor(async () => (await admin.send<number>('LLEN', dest)) >= 20, {
        message: 'some delivered',
      });
      assert.equal(await admin.killClients(name), 1, 'the input connection was killed');
      await run.done;
      const got = await admin.send<string[]>('LRANGE', dest, '0', '-1');
      assert.ok(got.length < 220, `a resumed scan, not one started over (${got.length} items)`);
      assert.deepEqual([...new Set(got)].sort(), [...keys].sort());
    } finally {
      await run.stop();
    }
  });

  it('a server killed mid-scan: not ready while down, then the scan finishes after the restart', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    const server = await PrivateRedisServer.start();
    let direct = await server.admin();
    const keys = Array.from({ length: 100 }, (_, i) => `k${i}`);
    await direct.send(['MSET', ...keys.flatMap((k) => [k, k])]);
    const dest = uniqueName('scan-restart-dst');
    admin.track(dest);
    const run = await startStream(`
input:
  redis_scan:
    url: ${server.url}
    match: 'k*'
pipeline:
  processors:
    - sleep: { duration: 5ms }
    - mapping: 'root = this.value'
output:
  redis_list:
    url: ${REDIS_URL}
    key: '${dest}'
`);
    try {
      await waitFor(() => run.stream.isReady(), { message: 'ready' });
      await direct.close();
      await server.kill();
      await waitFor(
        () => run.stream.statuses().some((s) => s.path.startsWith('input') && !s.connected && s.error),
        {
          message: 'the input reports the outage',
        },
      );
      assert.equal(run.stream.isReady(), false);
      await server.restart();
      direct = await server.admin();
      await run.done;
      const got = await admin.send<string[]>('LRANGE', dest, '0', '-1');
      assert.deepEqual([...new Set(got)].sort(), [...keys].sort(), 'every key delivered');
    } finally {
      await run.stop();
      await direct.close();
      await server.dispose();
    }
  });

  it('rejects a url that is not a redis URL, naming the field', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    await assert.rejects(
      startStream(`
input:
  redis_scan:
    url: http://127.0.0.1:6379
output:
  drop: {}
`),
      /url: expected a redis:\/\/ or rediss:\/\/ URL/,
    );
  });
});
