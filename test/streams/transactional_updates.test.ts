// Updates are transactional (issue 17): a PUT or PATCH whose new stream cannot start (its listener's
// address is taken) answers 400 naming why and leaves the previous stream working; a bulk
// `POST /streams` is all or nothing and names each failing stream.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { StreamsService } from '../../src/streams/service.js';
import { freePort } from '../helpers/kit.js';
import { H, json, send, startService } from './support.js';

/** A stream whose http_server input listens on its own address and drops what it gets. */
const listening = (port: number, path = '/in') =>
  JSON.stringify({ input: { http_server: { address: `127.0.0.1:${port}`, path } }, output: { drop: {} } });

async function postTo(port: number, path: string): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', body: 'hi' });
  await res.arrayBuffer();
  return res.status;
}

describe('transactional updates', () => {
  let svc: StreamsService;
  let blocker: Server;
  let taken: number;
  let working: number;

  before(async () => {
    svc = await startService();
    taken = await freePort();
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(taken, '127.0.0.1', resolve));
    working = await freePort();
  });
  after(async () => {
    await svc.stop();
    await new Promise((resolve) => blocker.close(resolve));
  });

  it('a PUT whose new address is in use is 400 naming why, and the old stream keeps serving', async () => {
    assert.equal((await send(svc, 'POST', '/streams/web', listening(working))).status, 200);
    assert.equal(await postTo(working, '/in'), 200);
    const r = await send(svc, 'PUT', '/streams/web', listening(taken));
    assert.equal(r.status, 400, r.body);
    assert.match(r.body, /^Error: stream 'web' did not start: input: .*address already in use/);
    const got = json(await send(svc, 'GET', '/streams/web')) as {
      active: boolean;
      config: { input: { http_server: { address: string } } };
    };
    assert.equal(got.active, true);
    assert.equal(got.config.input.http_server.address, `127.0.0.1:${working}`);
    assert.equal(await postTo(working, '/in'), 200);
  });

  it('a PATCH that moves the listener onto a taken address is refused the same way', async () => {
    const patch = JSON.stringify({ input: { http_server: { address: `127.0.0.1:${taken}` } } });
    const r = await send(svc, 'PATCH', '/streams/web', patch);
    assert.equal(r.status, 400, r.body);
    assert.match(r.body, /address already in use/);
    assert.equal(await postTo(working, '/in'), 200);
    assert.equal((await send(svc, 'DELETE', '/streams/web')).status, 200);
  });

  it('a bulk POST with a stream that cannot start changes nothing and names that stream', async () => {
    assert.equal((await send(svc, 'POST', '/streams', JSON.stringify({ keep: H, gone: H }))).status, 200);
    const other = await freePort();
    const body = JSON.stringify({
      keep: { ...H, pipeline: { processors: [{ mapping: 'root = "changed"' }] } },
      fresh: JSON.parse(listening(other)),
      blocked: JSON.parse(listening(taken)),
    });
    const r = await send(svc, 'POST', '/streams', body);
    assert.equal(r.status, 400, r.body);
    assert.match(
      r.body,
      /failed to create stream 'blocked': stream 'blocked' did not start: .*address already in use/,
    );
    assert.doesNotMatch(r.body, /'fresh'|'keep'/);
    const list = json(await send(svc, 'GET', '/streams'));
    assert.deepEqual(Object.keys(list).sort(), ['gone', 'keep']);
    const keep = json(await send(svc, 'GET', '/streams/keep')) as { active: boolean; config: unknown };
    assert.deepEqual(keep.config, H);
    assert.equal(keep.active, true);
    // The stream created then undone let go of its address.
    await assert.rejects(postTo(other, '/in'));
  });

  it('a bulk POST with a config that does not build changes nothing and names each failing stream', async () => {
    const broken = {
      ...H,
      pipeline: { processors: [{ cache: { resource: 'nope', operator: 'get', key: 'k' } }] },
    };
    const body = JSON.stringify({ keep: broken, extra: H, other_bad: broken });
    const r = await send(svc, 'POST', '/streams?chilled=true', body);
    assert.equal(r.status, 400, r.body);
    assert.match(r.body, /failed to update stream 'keep': /);
    assert.match(r.body, /failed to create stream 'other_bad': /);
    const list = json(await send(svc, 'GET', '/streams'));
    assert.deepEqual(Object.keys(list).sort(), ['gone', 'keep']);
    assert.deepEqual((json(await send(svc, 'GET', '/streams/keep')) as { config: unknown }).config, H);
  });

  it('an update that can share nothing starts beside the running stream: a failure never stops it', async () => {
    const ticking = {
      input: { generate: { interval: '10ms', mapping: 'root = deleted()' } },
      output: { drop: {} },
    };
    assert.equal((await send(svc, 'POST', '/streams/ticker', JSON.stringify(ticking))).status, 200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const before = (json(await send(svc, 'GET', '/streams/ticker')) as { uptime: number }).uptime;
    const never = { ...ticking, output: { test_unconnectable: {} } };
    const r = await send(svc, 'PUT', '/streams/ticker?chilled=true', JSON.stringify(never));
    assert.equal(r.status, 400, r.body);
    assert.match(
      r.body,
      /did not start: output: this output can never connect \(the running stream was left as it was\)/,
    );
    const after = json(await send(svc, 'GET', '/streams/ticker')) as {
      uptime: number;
      active: boolean;
      config: unknown;
    };
    assert.equal(after.active, true);
    assert.deepEqual(after.config, ticking);
    // Never stopped: a restart would have reset the uptime.
    assert.ok(after.uptime >= before, `uptime ${after.uptime} < ${before}`);
    const changed = { ...ticking, pipeline: { processors: [{ mapping: 'root = "v2"' }] } };
    assert.equal((await send(svc, 'PUT', '/streams/ticker', JSON.stringify(changed))).status, 200);
    assert.deepEqual(
      (json(await send(svc, 'GET', '/streams/ticker')) as { config: unknown }).config,
      changed,
    );
    assert.equal((await send(svc, 'DELETE', '/streams/ticker')).status, 200);
  });
});
