// Issue 24: `POST /streams/{id}/pause` and `/resume` (the input stops being read, what was read
// finishes, nothing is lost or delivered twice), and `GET /streams/{id}` saying why a stream is not
// ready: its state and since when, and which component is down with its error and since when.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { StreamsService } from '../../src/streams/service.js';
import { Admin, uniqueName } from '../components/redis/helpers.js';
import { REDIS_URL, requireService, waitFor } from '../helpers/kit.js';
import { H_JSON, json, send, startService } from './support.js';

type Detail = {
  state: string;
  since: string;
  not_ready: Array<{ component: string; label: string; error: string | null; since: string | null }>;
  status: { input_connected: boolean; output_connected: boolean; last_error: string | null };
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('pause and resume', () => {
  let svc: StreamsService;
  before(async () => {
    svc = await startService();
  });
  after(() => svc.stop());
  const detail = async (id: string) => json(await send(svc, 'GET', `/streams/${id}`)) as unknown as Detail;

  it('a paused Redis list stays in Redis; resumed, every item arrives once and in order', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    const admin = await Admin.open();
    const source = uniqueName('pause-src');
    const dest = uniqueName('pause-dst');
    admin.track(source, dest);
    const stream = {
      input: { redis_list: { url: REDIS_URL, key: source, timeout: '100ms' } },
      pipeline: { threads: 1, processors: [] },
      output: { redis_list: { url: REDIS_URL, key: dest } },
    };
    try {
      assert.equal((await send(svc, 'POST', '/streams/lister', JSON.stringify(stream))).status, 200);
      await admin.send('RPUSH', source, 'a', 'b');
      await waitFor(async () => (await admin.send<number>('LLEN', dest)) === 2, { message: 'a and b' });

      const before = Date.now();
      assert.equal((await send(svc, 'POST', '/streams/lister/pause')).status, 200);
      const paused = await detail('lister');
      assert.equal(paused.state, 'paused');
      assert.ok(Date.parse(paused.since) >= before - 5 && Date.parse(paused.since) <= Date.now());
      assert.deepEqual(paused.not_ready, [], 'a paused stream stays connected');
      // Pausing twice changes nothing, not even the time it began.
      assert.equal((await send(svc, 'POST', '/streams/lister/pause')).status, 200);
      assert.equal((await detail('lister')).since, paused.since);

      await admin.send('RPUSH', source, 'c', 'd', 'e', 'f');
      await sleep(500);
      // The one pop already waiting when the pause came may take one item; the rest stay in Redis.
      assert.ok((await admin.send<number>('LLEN', source)) >= 3, 'the input is not read while paused');
      assert.ok((await admin.send<number>('LLEN', dest)) <= 3);

      assert.equal((await send(svc, 'POST', '/streams/lister/resume')).status, 200);
      assert.equal((await detail('lister')).state, 'running');
      await waitFor(async () => (await admin.send<number>('LLEN', dest)) === 6, { message: 'all six' });
      const delivered = (await admin.send<Buffer[]>('LRANGE', dest, '0', '-1')).map(String);
      assert.deepEqual(delivered, ['a', 'b', 'c', 'd', 'e', 'f']);
      assert.equal(await admin.send<number>('LLEN', source), 0);
    } finally {
      await send(svc, 'DELETE', '/streams/lister?timeout=1s');
      await admin.cleanup();
    }
  });

  it('a paused stream stops promptly, and an update runs the new config', async () => {
    assert.equal((await send(svc, 'POST', '/streams/idle', H_JSON)).status, 200);
    assert.equal((await send(svc, 'POST', '/streams/idle/pause')).status, 200);
    assert.equal((await send(svc, 'PUT', '/streams/idle', H_JSON)).status, 200);
    assert.equal((await detail('idle')).state, 'running');
    assert.equal((await send(svc, 'POST', '/streams/idle/pause')).status, 200);
    const started = Date.now();
    assert.equal((await send(svc, 'DELETE', '/streams/idle')).status, 200);
    assert.ok(Date.now() - started < 3000, 'paused readers are let go when the stream stops');
  });

  it('refuses an unknown id (404), another method (400) and a finished stream (409)', async () => {
    assert.equal((await send(svc, 'POST', '/streams/nope/pause')).status, 404);
    assert.equal((await send(svc, 'POST', '/streams/nope/resume')).body, 'Stream not found\n');
    const verb = await send(svc, 'GET', '/streams/nope/pause');
    assert.equal(verb.status, 400);
    assert.equal(verb.body, 'Error: verb not supported: GET\n');
    const finite = {
      input: { generate: { count: 1, interval: '', mapping: 'root = 1' } },
      output: { drop: {} },
    };
    assert.equal((await send(svc, 'POST', '/streams/once', JSON.stringify(finite))).status, 200);
    await waitFor(async () => (await detail('once')).state === 'finished', { message: 'once to finish' });
    const refused = await send(svc, 'POST', '/streams/once/pause');
    assert.equal(refused.status, 409);
    assert.match(refused.body, /^Error: stream 'once' has finished/);
    assert.equal((await send(svc, 'POST', '/streams/once/resume')).status, 409);
  });
});

describe('why a stream is not ready', () => {
  let svc: StreamsService;
  before(async () => {
    svc = await startService();
  });
  after(() => svc.stop());

  it('names the component that is down, its error and since when', async () => {
    const stream = {
      input: { generate: { interval: '10ms', mapping: 'root = "x"' } },
      output: { label: 'sink', test_unconnectable: {} },
    };
    const before = Date.now();
    assert.equal((await send(svc, 'POST', '/streams/down?chilled=true', JSON.stringify(stream))).status, 200);
    let d: Detail | undefined;
    await waitFor(
      async () => {
        d = json(await send(svc, 'GET', '/streams/down')) as unknown as Detail;
        return d.not_ready.length > 0 && d.not_ready[0]?.error !== null;
      },
      { message: 'the output to report its error' },
    );
    const got = d as Detail;
    assert.equal(got.state, 'running');
    assert.deepEqual(
      got.not_ready.map((c) => [c.component, c.label, c.error]),
      [['output', 'sink', 'this output can never connect']],
    );
    const since = Date.parse(got.not_ready[0]?.since ?? '');
    assert.ok(since >= before - 5 && since <= Date.now(), `since ${got.not_ready[0]?.since}`);
    assert.ok(Date.parse(got.since) >= before - 5);
    // The existing status object keeps its shape (decision 5).
    assert.equal(got.status.output_connected, false);
    assert.equal((await send(svc, 'GET', '/ready')).status, 503);
    assert.equal((await send(svc, 'DELETE', '/streams/down?timeout=0s')).status, 200);
  });

  it('a connected stream has nothing in not_ready; a finished one says since when', async () => {
    assert.equal((await send(svc, 'POST', '/streams/fine', H_JSON)).status, 200);
    await waitFor(
      async () => (json(await send(svc, 'GET', '/streams/fine')) as Detail).status.input_connected,
    );
    const fine = json(await send(svc, 'GET', '/streams/fine')) as unknown as Detail;
    assert.deepEqual([fine.state, fine.not_ready], ['running', []]);
    const finite = {
      input: { generate: { count: 1, interval: '', mapping: 'root = 1' } },
      output: { drop: {} },
    };
    assert.equal((await send(svc, 'POST', '/streams/done', JSON.stringify(finite))).status, 200);
    await waitFor(async () => (json(await send(svc, 'GET', '/streams/done')) as Detail).state === 'finished');
    const done = json(await send(svc, 'GET', '/streams/done')) as unknown as Detail;
    assert.ok(Date.parse(done.since) <= Date.now());
    assert.deepEqual(done.not_ready, []);
  });
});
