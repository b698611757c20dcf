import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { HttpServer } from '../../src/http/server.js';
import { basicAuthHeader, send, startServer } from './support.js';

const servers: HttpServer[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

async function withOrigins(...origins: string[]): Promise<HttpServer> {
  const server = await startServer({ config: { cors: { enabled: true, allowed_origins: origins } } });
  servers.push(server);
  return server;
}

function preflight(server: HttpServer, origin: string, method = 'POST') {
  return send(server, '/version', {
    method: 'OPTIONS',
    headers: { Origin: origin, 'Access-Control-Request-Method': method },
  });
}

describe('CORS', () => {
  it('allows any origin with * (scenario 49)', async () => {
    const server = await withOrigins('*');
    const reply = await preflight(server, 'meow');
    assert.equal(reply.status, 200);
    assert.equal(reply.headers['access-control-allow-origin'], '*');
    assert.equal(reply.headers.vary, undefined);
  });

  it('echoes listed origins and ignores others (scenario 50)', async () => {
    const server = await withOrigins('foo', 'bar');
    const foo = await preflight(server, 'foo');
    assert.equal(foo.status, 200);
    assert.equal(foo.headers['access-control-allow-origin'], 'foo');
    assert.equal(foo.headers.vary, 'Origin');
    assert.equal((await preflight(server, 'bar')).headers['access-control-allow-origin'], 'bar');
    const baz = await preflight(server, 'baz');
    assert.equal(baz.status, 200);
    assert.equal(baz.headers['access-control-allow-origin'], undefined);
    assert.equal(baz.body, '', 'the preflight is not forwarded to the handler');
  });

  it('refuses a preflight for a method outside the list, or without a method', async () => {
    const server = await withOrigins('foo');
    assert.equal((await preflight(server, 'foo', 'TRACE')).status, 405);
    const noMethod = await send(server, '/version', { method: 'OPTIONS', headers: { Origin: 'foo' } });
    assert.equal(noMethod.status, 400);
  });

  it('adds the allow-origin header to ordinary requests from allowed origins only', async () => {
    const server = await withOrigins('foo');
    const allowed = await send(server, '/ping', { headers: { Origin: 'foo' } });
    assert.equal(allowed.body, 'pong');
    assert.equal(allowed.headers['access-control-allow-origin'], 'foo');
    // Another origin is a web page elsewhere: the server's own routes refuse it (403).
    const other = await send(server, '/ping', { headers: { Origin: 'bar' } });
    assert.equal(other.status, 403);
    assert.equal(other.headers['access-control-allow-origin'], undefined);
  });

  it('answers preflights before basic auth', async () => {
    const server = await startServer({
      config: {
        cors: { enabled: true, allowed_origins: ['*'] },
        basic_auth: {
          enabled: true,
          username: 'myuser',
          password_hash: 'Xr4ilOzQ4PCOq3aQ0qbuaQ==',
          algorithm: 'md5',
        },
      },
    });
    servers.push(server);
    assert.equal((await preflight(server, 'meow')).status, 200);
    assert.equal((await send(server, '/version', { headers: { Origin: 'meow' } })).status, 401);
    const authorised = await send(server, '/ping', {
      headers: { Origin: 'meow', Authorization: basicAuthHeader('myuser', 'secret') },
    });
    assert.equal(authorised.status, 200);
    assert.equal(authorised.headers['access-control-allow-origin'], '*');
  });
});
