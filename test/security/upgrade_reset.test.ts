// An upgrade request (no credentials, basic auth on) followed by a TCP reset, on every kind of path
// of the main server: the process must not die of an unhandled socket error.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HttpServer } from '../../src/http/server.js';
import { basicAuthHeader, send, startServer } from '../http/support.js';
import { rawExchange, upgradeRequest } from './raw_client.js';

const SHA256_OF_SECRET = 'K7gNU3sdo+OL0wNhqoVWhr3g6s1xYv72ol/pe/Unols=';

describe('upgrade requests that reset', () => {
  let server: HttpServer;
  before(async () => {
    server = await startServer({
      config: {
        basic_auth: {
          enabled: true,
          username: 'admin',
          password_hash: SHA256_OF_SECRET,
          algorithm: 'sha256',
        },
      },
    });
    server.register('/streams/{id}', 'A stand-in API route.', (_req, res) => {
      res.end('x'.repeat(256 * 1024));
    });
  });
  after(() => server.close());

  it('leave the server alive on /ping, a 404 path and an API path', async () => {
    const port = server.port as number;
    for (let round = 0; round < 40; round++) {
      const tries = ['/ping', '/no/such/path', '/streams/abc', '/nekton/streams/abc'].map((path) =>
        rawExchange(port, upgradeRequest(path), { after: 'reset', delayMs: round % 4 }),
      );
      await Promise.all(tries);
    }
    // A client that half-closes and one that resets mid-answer (a large authorised answer).
    const auth = `Authorization: ${basicAuthHeader('admin', 'secret')}\r\n`;
    const big = upgradeRequest('/streams/abc').replace('\r\n\r\n', `\r\n${auth}\r\n`);
    for (let round = 0; round < 20; round++) {
      await Promise.all([
        rawExchange(port, big, { after: 'reset', delayMs: round % 3 }),
        rawExchange(port, upgradeRequest('/ping'), { after: 'end' }),
      ]);
    }
    const reply = await send(server, '/ping', {
      headers: { authorization: basicAuthHeader('admin', 'secret') },
    });
    assert.equal(reply.status, 200);
  });
});
