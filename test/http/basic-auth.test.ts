import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { after, describe, it } from 'node:test';
import { createBasicAuthenticator } from '../../src/http/basic-auth.js';
import type { HttpServer } from '../../src/http/server.js';
import { basicAuthHeader, send, startServer } from './support.js';

// The reference's test vectors (spec §1.6): password `secret`.
const SALT = 'EzrwNJYw2wkErVVV1P36FQ==';
const VECTORS = {
  sha256: 'K7gNU3sdo+OL0wNhqoVWhr3g6s1xYv72ol/pe/Unols=',
  md5: 'Xr4ilOzQ4PCOq3aQ0qbuaQ==',
  bcrypt: 'JDJhJDEwJHRDMWs2NHc5VjA0R3JIdEE2QzQ2SC5na3o3WWNUUWlQc1RNbVNCUU8yOG8uSWg4YUUvaUcu',
  scrypt: 'eJ01V0+YCJxHraokLp79ijKS0z1jzVQ3vFtGx5UEEiY=',
} as const;

const servers: HttpServer[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

async function guarded(algorithm: string, passwordHash: string, realm = 'restricted'): Promise<HttpServer> {
  const server = await startServer({
    config: {
      basic_auth: {
        enabled: true,
        username: 'myuser',
        password_hash: passwordHash,
        algorithm,
        salt: SALT,
        realm,
      },
    },
  });
  servers.push(server);
  return server;
}

describe('basic auth (scenario 52)', () => {
  for (const [algorithm, hash] of Object.entries(VECTORS)) {
    it(`lets myuser:secret through with ${algorithm}, and refuses a wrong password`, async () => {
      const server = await guarded(algorithm, hash);
      const ok = await send(server, '/version', {
        headers: { Authorization: basicAuthHeader('myuser', 'secret') },
      });
      assert.equal(ok.status, 200);
      const wrong = await send(server, '/version', {
        headers: { Authorization: basicAuthHeader('myuser', 'wrong') },
      });
      assert.equal(wrong.status, 401);
      const otherUser = await send(server, '/version', {
        headers: { Authorization: basicAuthHeader('someone', 'secret') },
      });
      assert.equal(otherUser.status, 401);
    });
  }

  it('answers missing credentials with 401, the challenge and Unauthorized', async () => {
    const server = await guarded('sha256', VECTORS.sha256, 'my realm');
    const reply = await send(server, '/version');
    assert.equal(reply.status, 401);
    assert.equal(reply.headers['www-authenticate'], 'Basic realm="my realm", charset="UTF-8"');
    assert.equal(reply.body, 'Unauthorized\n');
    const garbled = await send(server, '/version', { headers: { Authorization: 'Basic !!!' } });
    assert.equal(garbled.status, 401);
  });

  it('guards the root-path mount and unknown paths alike (401 vs 404 would list what exists)', async () => {
    const server = await guarded('md5', VECTORS.md5);
    assert.equal((await send(server, '/nekton/ping')).status, 401);
    const authorised = { headers: { Authorization: basicAuthHeader('myuser', 'secret') } };
    assert.equal((await send(server, '/nekton/ping', authorised)).body, 'pong');
    assert.equal((await send(server, '/unknown')).status, 401);
    assert.equal((await send(server, '/streams/some_id/stats')).status, 401);
    assert.equal((await send(server, '/unknown', authorised)).status, 404);
  });

  it('refuses to start when password_hash can never match (not base64, wrong size)', async () => {
    await assert.rejects(guarded('sha256', 'not*base64'), /invalid password_hash : illegal base64 data/);
    await assert.rejects(
      guarded('sha256', VECTORS.md5),
      /invalid password_hash : a sha256 digest is 32 bytes/,
    );
    await assert.rejects(
      guarded('bcrypt', VECTORS.sha256),
      /invalid password_hash : not the base64 of a bcrypt/,
    );
  });

  it('verifies an expensive hash once, then answers from the cache', async () => {
    const server = await guarded('scrypt', VECTORS.scrypt);
    const headers = { Authorization: basicAuthHeader('myuser', 'secret') };
    assert.equal((await send(server, '/ping', { headers })).status, 200);
    const started = process.hrtime.bigint();
    for (let i = 0; i < 5; i++) assert.equal((await send(server, '/ping', { headers })).status, 200);
    const perRequestMs = Number(process.hrtime.bigint() - started) / 5e6;
    assert.ok(perRequestMs < 50, `cached requests took ${perRequestMs.toFixed(1)} ms each`);
    assert.equal(
      (await send(server, '/ping', { headers: { Authorization: basicAuthHeader('myuser', 'x') } })).status,
      401,
    );
  });

  it('lets everything through when disabled', async () => {
    const server = await startServer();
    servers.push(server);
    assert.equal((await send(server, '/version')).status, 200);
    const wrong = await send(server, '/version', {
      headers: { Authorization: basicAuthHeader('myuser', 'wrong') },
    });
    assert.equal(wrong.status, 200);
  });
});

describe('createBasicAuthenticator', () => {
  it('shares one bcrypt verification between concurrent identical requests', async () => {
    const authenticator = createBasicAuthenticator({
      enabled: true,
      realm: 'r',
      username: 'myuser',
      password_hash: VECTORS.bcrypt,
      algorithm: 'bcrypt',
      salt: '',
    });
    const req = { headers: { authorization: basicAuthHeader('myuser', 'secret') } } as IncomingMessage;
    const first = authenticator.check(req);
    const second = authenticator.check(req);
    assert.ok(first instanceof Promise);
    assert.equal(first, second);
    assert.equal(await first, 'ok');
    assert.equal(authenticator.check(req), 'ok', 'answered from the cache, synchronously');
  });
});
