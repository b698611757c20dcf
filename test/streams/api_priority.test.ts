// The management API is never shadowed by a stream's endpoints: a stream path an API route would
// answer is refused (502 "reserved"), and a stream's own `/<id>/ready` that falls on an API route
// is simply not served, so streams named `streams`, `resources` or `ready` still work.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { waitFor } from '../helpers/kit.js';
import { H_JSON, json, send, startService } from './support.js';

const httpServerAt = (path: string) =>
  JSON.stringify({ input: { http_server: { path } }, output: { drop: {} } });

describe('API routes win over stream endpoints', () => {
  it('a stream named streams does not shadow /streams/ready of a stream named ready', async () => {
    const svc = await startService();
    try {
      assert.equal((await send(svc, 'POST', '/streams/ready', H_JSON)).status, 200);
      assert.equal((await send(svc, 'POST', '/streams/streams', H_JSON)).status, 200);
      for (const path of ['/streams/ready', '/nekton/streams/ready']) {
        const got = await send(svc, 'GET', path);
        assert.equal(got.status, 200, path);
        assert.deepEqual(json(got).config, JSON.parse(H_JSON), path);
      }
      assert.equal(json(await send(svc, 'GET', '/streams/streams')).active, true);
      assert.ok(!('/streams/ready' in json(await send(svc, 'GET', '/endpoints'))));
      assert.equal((await send(svc, 'PUT', '/streams/ready', H_JSON)).status, 200);
      assert.equal((await send(svc, 'DELETE', '/streams/ready')).status, 200);
      assert.equal((await send(svc, 'GET', '/streams/ready')).status, 404);
      // The stream named `ready` has its own readiness at /ready/ready; /ready stays aggregated.
      assert.equal((await send(svc, 'POST', '/streams/ready', H_JSON)).status, 200);
      assert.match((await send(svc, 'GET', '/ready/ready')).body, /"statuses"/);
      await waitFor(async () => (await send(svc, 'GET', '/ready')).body === 'OK', { message: '/ready OK' });
    } finally {
      await svc.stop();
    }
  });

  it('an http_server path under an API route is refused, and the API keeps answering', async () => {
    const svc = await startService();
    try {
      assert.equal((await send(svc, 'POST', '/streams/victim', H_JSON)).status, 200);
      const hijack = await send(svc, 'POST', '/streams/streams', httpServerAt('/victim'));
      assert.equal(hijack.status, 502);
      assert.match(hijack.body, /^Error: .*\/streams\/victim is reserved/);
      assert.equal((await send(svc, 'GET', '/streams/streams')).status, 404);
      const byResources = await send(svc, 'POST', '/streams/resources', httpServerAt('/cache/x'));
      assert.equal(byResources.status, 502);
      assert.match(byResources.body, /reserved/);
      // Under the root path too: stream `nekton` would otherwise own /nekton/streams/victim.
      const byRoot = await send(svc, 'POST', '/streams/nekton', httpServerAt('/streams/victim'));
      assert.equal(byRoot.status, 502);
      assert.equal((await send(svc, 'GET', '/streams/victim')).status, 200);
      assert.equal((await send(svc, 'GET', '/nekton/streams/victim')).status, 200);
      assert.equal((await send(svc, 'DELETE', '/streams/victim')).status, 200);
    } finally {
      await svc.stop();
    }
  });

  it('with prefixing off, an http_server path matching /streams/{id} is refused', async () => {
    const svc = await startService({ prefixStreamEndpoints: false });
    try {
      assert.equal((await send(svc, 'POST', '/streams/x', H_JSON)).status, 200);
      const clash = await send(svc, 'POST', '/streams/y', httpServerAt('/streams/x'));
      assert.equal(clash.status, 502);
      assert.match(clash.body, /reserved/);
      assert.equal((await send(svc, 'GET', '/streams/x')).status, 200);
      assert.equal((await send(svc, 'GET', '/streams/y')).status, 404);
      // A path beside the API is still fine.
      assert.equal((await send(svc, 'POST', '/streams/z', httpServerAt('/z/in'))).status, 200);
    } finally {
      await svc.stop();
    }
  });
});
