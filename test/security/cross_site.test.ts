// Web pages cannot drive the server's own routes: a foreign Origin or Sec-Fetch-Site: cross-site is
// 403, and on a loopback listener a Host that is not the server's (DNS rebinding) is 403 too.
// Clients without those headers (curl) are served as before; stream endpoints keep their own rules.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HttpServer } from '../../src/http/server.js';
import { registerPlayground } from '../../src/playground/routes.js';
import { send, startServer } from '../http/support.js';

const EXECUTE_BODY = JSON.stringify({ mapping: 'root = env("HOME")', input: '{}' });

describe('cross-site requests', () => {
  let server: HttpServer;
  let origin: string;
  before(async () => {
    server = await startServer();
    registerPlayground(server);
    server.register('/streams/{id}', 'A stand-in API route.', (_req, res) => {
      res.end('created');
    });
    origin = `http://127.0.0.1:${server.port}`;
  });
  after(() => server.close());

  it('refuses a form POST to the API from another site (Origin)', async () => {
    const reply = await send(server, '/streams/evil', {
      method: 'POST',
      headers: { Origin: 'https://evil.example', 'Content-Type': 'text/plain' },
      body: 'input: {generate: {mapping: root = 1}}',
    });
    assert.equal(reply.status, 403);
    assert.match(reply.body, /evil\.example/);
  });

  it('refuses Sec-Fetch-Site: cross-site even without an Origin', async () => {
    const reply = await send(server, '/streams/evil', {
      method: 'POST',
      headers: { 'Sec-Fetch-Site': 'cross-site' },
      body: 'x',
    });
    assert.equal(reply.status, 403);
  });

  it('refuses a DNS-rebound Host on a loopback listener (playground included), not its own names', async () => {
    const rebound = { Host: `attacker.example:${server.port}`, 'Content-Type': 'application/json' };
    const execute = await send(server, '/execute', { method: 'POST', headers: rebound, body: EXECUTE_BODY });
    assert.equal(execute.status, 403);
    const api = await send(server, '/streams/x', { method: 'POST', headers: { Host: 'attacker.example' } });
    assert.equal(api.status, 403);
    const wrongPort = await send(server, '/ping', { headers: { Host: '127.0.0.1:1' } });
    assert.equal(wrongPort.status, 403);
    // curl (no Origin), the page's own origin and the localhost names are served as before.
    assert.equal((await send(server, '/streams/x', { method: 'POST', body: 'x' })).body, 'created');
    const sameOrigin = await send(server, '/execute', {
      method: 'POST',
      headers: { Origin: origin, 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'same-origin' },
      body: EXECUTE_BODY,
    });
    assert.equal(sameOrigin.status, 200);
    for (const host of ['localhost', `localhost:${server.port}`, `127.0.0.1:${server.port}`]) {
      assert.equal((await send(server, '/ping', { headers: { Host: host } })).status, 200, host);
    }
  });

  it('leaves stream endpoints to their own CORS settings', async () => {
    const plain = await startServer();
    try {
      plain.registerStreamEndpoint('/hook', 'A stream endpoint.', (_req, res) => {
        res.end('hooked');
      });
      const headers = { Origin: 'https://shop.example' };
      assert.equal((await send(plain, '/hook', { method: 'POST', headers })).body, 'hooked');
      assert.equal((await send(plain, '/ping', { headers })).status, 403);
    } finally {
      await plain.close();
    }
  });

  it('lets origins listed in http.cors through', async () => {
    const open = await startServer({
      config: { cors: { enabled: true, allowed_origins: ['https://ui.example'] } },
    });
    try {
      const ok = await send(open, '/ping', { headers: { Origin: 'https://ui.example' } });
      assert.equal(ok.status, 200);
      assert.equal((await send(open, '/ping', { headers: { Origin: 'https://other.example' } })).status, 403);
    } finally {
      await open.close();
    }
  });
});
