// Spec §9 scenarios 30–39: stop deadlines, finished streams, construction failures, decision 2,
// readiness (aggregated and per stream) and stats; plus odd ids, body limits and concurrency.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config bodies carry ${ENV} and ${! } on purpose
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { StreamsService } from '../../src/streams/service.js';
import { waitFor } from '../helpers/kit.js';
import type { Loose } from './support.js';
import { H, H_JSON, json, send, startService } from './support.js';

const FINITE = {
  input: { generate: { count: 1, interval: '', mapping: 'root = {"id":"x"}' } },
  output: { drop: {} },
};
const MISSING_CACHE_PROCESSOR = {
  ...H,
  pipeline: { processors: [{ cache: { resource: 'nope', operator: 'get', key: 'k' } }] },
};
const MISSING_CACHE_OUTPUT = {
  input: H.input,
  output: { cache: { target: 'nope', key: '${! json("id") }' } },
};

type Detail = {
  active: boolean;
  uptime: number;
  config: Loose;
  status: Record<string, unknown>;
};

describe('stream lifecycle, readiness and stats', () => {
  let svc: StreamsService;
  before(async () => {
    svc = await startService();
  });
  after(() => svc.stop());
  const get = async (id: string) => json(await send(svc, 'GET', `/streams/${id}`)) as Detail;

  it('30: an unparsable ?timeout is ignored', async () => {
    assert.equal((await send(svc, 'POST', '/streams/foo', H_JSON)).status, 200);
    const r = await send(svc, 'DELETE', '/streams/foo?timeout=notaduration');
    assert.equal(r.status, 200);
    assert.equal((await send(svc, 'GET', '/streams/foo')).status, 404);
  });

  it('31: DELETE ?timeout=0s removes even a stream whose output never acknowledges', async () => {
    const stuck = {
      input: { generate: { interval: '1ms', mapping: 'root = "x"' } },
      output: { test_blackhole: {} },
    };
    assert.equal((await send(svc, 'POST', '/streams/foo?chilled=true', JSON.stringify(stuck))).status, 200);
    const r = await send(svc, 'DELETE', '/streams/foo?timeout=0s');
    assert.equal(r.status, 200);
    assert.equal((await send(svc, 'GET', '/streams/foo')).status, 404);
  });

  it('32: a finished stream stays listed with active:false and a frozen uptime', async () => {
    assert.equal((await send(svc, 'POST', '/streams/finite', JSON.stringify(FINITE))).status, 200);
    await waitFor(async () => (await get('finite')).active === false, { message: 'finite to finish' });
    const first = (await get('finite')).uptime;
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal((await get('finite')).uptime, first);
    const list = json(await send(svc, 'GET', '/streams')) as Record<string, { active: boolean }>;
    assert.equal(list.finite?.active, false);
    assert.equal((await send(svc, 'DELETE', '/streams/finite')).status, 200);
  });

  it('33: a construction failure is 502 and registers nothing (cache processor)', async () => {
    const r = await send(svc, 'POST', '/streams/foo?chilled=true', JSON.stringify(MISSING_CACHE_PROCESSOR));
    assert.equal(r.status, 502);
    assert.ok(r.body.startsWith('Error: '), r.body);
    assert.equal((await send(svc, 'GET', '/streams/foo')).status, 404);
  });

  it('33: a construction failure is 502 (cache output, as the spec writes it)', async () => {
    const r = await send(svc, 'POST', '/streams/foo?chilled=true', JSON.stringify(MISSING_CACHE_OUTPUT));
    assert.equal(r.status, 502);
    assert.ok(r.body.startsWith('Error: '), r.body);
    assert.equal((await send(svc, 'GET', '/streams/foo')).status, 404);
  });

  it('34: a PUT that fails construction keeps the previous config running (decision 2)', async () => {
    assert.equal((await send(svc, 'POST', '/streams/foo', H_JSON)).status, 200);
    await new Promise((r) => setTimeout(r, 200));
    const before = (await get('foo')).uptime as number;
    const r = await send(svc, 'PUT', '/streams/foo?chilled=true', JSON.stringify(MISSING_CACHE_PROCESSOR));
    assert.equal(r.status, 502);
    assert.ok(r.body.startsWith('Error: '), r.body);
    assert.match(r.body, /the running stream was left as it was/);
    const d = await get('foo');
    assert.equal(d.active, true);
    assert.deepEqual(d.config, H);
    // Built aside and refused: the running instance was never stopped (a restart resets uptime).
    assert.ok((d.uptime as number) >= before, `uptime ${d.uptime} < ${before}`);
    const patch = await send(
      svc,
      'PATCH',
      '/streams/foo?chilled=true',
      JSON.stringify({ pipeline: MISSING_CACHE_PROCESSOR.pipeline }),
    );
    assert.equal(patch.status, 502);
    assert.deepEqual((await get('foo')).config, H);
    assert.equal((await send(svc, 'DELETE', '/streams/foo')).status, 200);
  });

  it('decision 2: GET never answers 404 while an update is in progress', async () => {
    assert.equal((await send(svc, 'POST', '/streams/busy', H_JSON)).status, 200);
    let done = false;
    const updates = (async () => {
      for (let i = 0; i < 5; i++) await send(svc, 'PUT', '/streams/busy', H_JSON);
      done = true;
    })();
    while (!done) assert.equal((await send(svc, 'GET', '/streams/busy')).status, 200);
    await updates;
    assert.equal((await send(svc, 'DELETE', '/streams/busy')).status, 200);
  });

  it('35: /ready names the streams that are not connected', async () => {
    assert.equal((await send(svc, 'POST', '/streams/foo', JSON.stringify(FINITE))).status, 200);
    await waitFor(async () => (await send(svc, 'GET', '/ready')).status === 200, { message: '/ready 200' });
    const never = { input: FINITE.input, output: { test_unconnectable: {} } };
    assert.equal((await send(svc, 'POST', '/streams/bar?chilled=true', JSON.stringify(never))).status, 200);
    const also = { input: FINITE.input, output: { test_unconnectable: {} } };
    assert.equal((await send(svc, 'POST', '/streams/aaa?chilled=true', JSON.stringify(also))).status, 200);
    const r = await waitFor(
      async () => {
        const reply = await send(svc, 'GET', '/ready');
        return reply.status === 503 && reply.body === 'streams aaa, bar are not connected\n' && reply;
      },
      { message: '/ready 503' },
    );
    assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8');
    const d = await get('bar');
    assert.equal(d.status.output_connected, false);
    assert.match(String(d.status.last_error), /never connect/);
    for (const id of ['foo', 'bar', 'aaa'])
      assert.equal((await send(svc, 'DELETE', `/streams/${id}?timeout=0s`)).status, 200);
    assert.equal((await send(svc, 'GET', '/ready')).status, 200);
  });

  it('35: the websocket variant of the spec', async () => {
    const never = { input: FINITE.input, output: { websocket: { url: 'not**a**valid**url' } } };
    assert.equal((await send(svc, 'POST', '/streams/bar?chilled=true', JSON.stringify(never))).status, 200);
    await waitFor(async () => (await send(svc, 'GET', '/ready')).body === 'streams bar are not connected\n', {
      message: '/ready 503',
    });
    assert.equal((await send(svc, 'DELETE', '/streams/bar?timeout=0s')).status, 200);
  });

  it('36: stats of an unknown stream are 404', async () => {
    const r = await send(svc, 'GET', '/streams/not_exist/stats');
    assert.equal(r.status, 404);
    assert.equal(r.body, 'Stream not found\n');
  });

  it('37: stats answer other verbs with 400 before looking the stream up', async () => {
    assert.equal((await send(svc, 'POST', '/streams/foo', H_JSON)).status, 200);
    const r = await send(svc, 'POST', '/streams/foo/stats');
    assert.equal(r.status, 400);
    assert.equal(r.body, 'Error: verb not supported: POST\n');
    assert.equal((await send(svc, 'POST', '/streams/nope/stats')).status, 400);
  });

  it('38: stats are a non-empty object with an integer uptime_ns', async () => {
    const r = await send(svc, 'GET', '/streams/foo/stats');
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'application/json');
    const stats = json(r);
    assert.ok(Number.isInteger(stats.uptime_ns) && (stats.uptime_ns as number) > 0);
    assert.ok(Object.keys(stats).length > 0);
  });

  it('39: every stream has /<id>/ready, listed in /endpoints, removed on delete (decision 6)', async () => {
    const r = await waitFor(
      async () => {
        const reply = await send(svc, 'GET', '/foo/ready');
        return reply.status === 200 && reply;
      },
      { message: '/foo/ready 200' },
    );
    const body = json(r) as { statuses: Array<{ path: string; connected: boolean }> };
    assert.ok(Array.isArray(body.statuses));
    assert.deepEqual(
      body.statuses.map((s) => [s.path, s.connected]),
      [
        ['input', true],
        ['output', true],
      ],
    );
    const endpoints = json(await send(svc, 'GET', '/endpoints'));
    assert.ok('/foo/ready' in endpoints);
    assert.equal((await send(svc, 'DELETE', '/streams/foo')).status, 200);
    assert.equal((await send(svc, 'GET', '/foo/ready')).status, 404);
    assert.equal('/foo/ready' in json(await send(svc, 'GET', '/endpoints')), false);
  });

  it('/<id>/ready of a finished stream is 503 stream terminated', async () => {
    assert.equal((await send(svc, 'POST', '/streams/done', JSON.stringify(FINITE))).status, 200);
    const r = await waitFor(
      async () => {
        const reply = await send(svc, 'GET', '/done/ready');
        return reply.status === 503 && reply;
      },
      { message: '/done/ready 503' },
    );
    const body = json(r) as { error: string; statuses: Array<{ connected: boolean }> };
    assert.equal(body.error, 'stream terminated');
    assert.ok(body.statuses.every((s) => !s.connected));
    assert.equal((await send(svc, 'DELETE', '/streams/done')).status, 200);
  });

  it('odd ids are refused with a reason, never crash the server', async () => {
    const dots = await send(svc, 'POST', '/streams/..', H_JSON);
    assert.equal(dots.status, 400);
    assert.match(dots.body, /^Error: invalid stream id/);
    const slash = await send(svc, 'POST', '/streams/a%2Fb', H_JSON);
    assert.equal(slash.status, 404);
    const long = await send(svc, 'POST', `/streams/${'x'.repeat(300)}`, H_JSON);
    assert.equal(long.status, 400);
    assert.match(long.body, /longer than 256/);
    const space = await send(svc, 'POST', '/streams/a%20b', H_JSON);
    assert.equal(space.status, 400);
    const badEscape = await send(svc, 'GET', '/streams/%E0%A4%A');
    assert.equal(badEscape.status, 400);
    const bulk = await send(svc, 'POST', '/streams', JSON.stringify({ '..': H }));
    assert.equal(bulk.status, 400);
    assert.match(bulk.body, /invalid stream id/);
    assert.equal((await send(svc, 'GET', '/streams')).body, '{}');
    assert.equal((await send(svc, 'GET', '/ping')).body, 'pong');
  });

  it('a body over the limit is 413', async () => {
    const big = Buffer.alloc(10 * 1024 * 1024 + 10, 0x20);
    const r = await send(svc, 'POST', '/streams/big', big);
    assert.equal(r.status, 413);
    assert.equal((await send(svc, 'GET', '/streams/big')).status, 404);
  });

  it('concurrent POSTs of one id: exactly one wins', async () => {
    const replies = await Promise.all(
      Array.from({ length: 8 }, () => send(svc, 'POST', '/streams/race', H_JSON)),
    );
    assert.equal(replies.filter((r) => r.status === 200).length, 1);
    for (const r of replies.filter((x) => x.status !== 200)) assert.equal(r.body, 'Stream already exists\n');
    assert.equal((await send(svc, 'DELETE', '/streams/race')).status, 200);
  });
});
