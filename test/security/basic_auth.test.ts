// `http.basic_auth` guarding a real streams-mode service: the management API (reads and writes,
// at both mounts) and component endpoints on the shared server, with the reference's sha256,
// bcrypt and scrypt vectors (password `secret`).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { StreamsService } from '../../src/streams/service.js';
import { waitFor } from '../helpers/kit.js';
import { H_JSON, send, startService } from '../streams/support.js';
import { basicAuth } from './support.js';

const SALT = 'EzrwNJYw2wkErVVV1P36FQ==';
const VECTORS = {
  sha256: 'K7gNU3sdo+OL0wNhqoVWhr3g6s1xYv72ol/pe/Unols=',
  bcrypt: 'JDJhJDEwJHRDMWs2NHc5VjA0R3JIdEE2QzQ2SC5na3o3WWNUUWlQc1RNbVNCUU8yOG8uSWg4YUUvaUcu',
  scrypt: 'eJ01V0+YCJxHraokLp79ijKS0z1jzVQ3vFtGx5UEEiY=',
} as const;

const GOOD = basicAuth('myuser', 'secret');
const WRONG_PASSWORD = basicAuth('myuser', 'secre');
const WRONG_USER = basicAuth('myuser2', 'secret');

for (const [algorithm, hash] of Object.entries(VECTORS)) {
  describe(`basic_auth ${algorithm} on the streams service`, () => {
    let service: StreamsService;

    before(async () => {
      service = await startService({
        observabilityYaml: `http:
  address: 127.0.0.1:0
  basic_auth:
    enabled: true
    realm: nekton-test
    username: myuser
    password_hash: ${hash}
    algorithm: ${algorithm}
    salt: ${SALT}
logger:
  level: OFF
`,
      });
    });

    after(async () => {
      await service.stop();
    });

    it('refuses missing and wrong credentials with 401 and the challenge, on every endpoint', async () => {
      for (const path of [
        '/streams',
        '/nekton/streams',
        '/ready',
        '/ping',
        '/streams/x/stats',
        '/resources',
      ]) {
        for (const headers of [{}, WRONG_PASSWORD, WRONG_USER, { Authorization: 'Basic !!!' }]) {
          const r = await send(service, 'GET', path, undefined, headers);
          assert.equal(r.status, 401, `${path} ${JSON.stringify(headers)}`);
          assert.equal(r.headers['www-authenticate'], 'Basic realm="nekton-test", charset="UTF-8"');
          assert.equal(r.body, 'Unauthorized\n');
        }
      }
    });

    it('never applies a write without valid credentials', async () => {
      const denied = await send(service, 'POST', '/streams/guarded', H_JSON, WRONG_PASSWORD);
      assert.equal(denied.status, 401);
      const read = await send(service, 'GET', '/streams/guarded', undefined, GOOD);
      assert.equal(read.status, 404, 'the unauthorised POST created the stream');
    });

    it('lets the right user and password through, and guards component endpoints too', async () => {
      const created = await send(
        service,
        'POST',
        '/streams/web',
        JSON.stringify({ input: { http_server: { path: '/in' } }, output: { drop: {} } }),
        GOOD,
      );
      assert.equal(created.status, 200, created.body);
      const list = await send(service, 'GET', '/streams', undefined, GOOD);
      assert.equal(list.status, 200);
      assert.ok('web' in (JSON.parse(list.body) as object));
      // The stream's own endpoint sits on the same server: same guard.
      const open = await send(service, 'POST', '/web/in', 'hello', WRONG_PASSWORD);
      assert.equal(open.status, 401);
      const posted = await waitFor(
        async () => {
          const r = await send(service, 'POST', '/web/in', 'hello', GOOD);
          return r.status === 200 ? r : null;
        },
        { message: 'an authorised POST to the stream endpoint' },
      );
      assert.equal(posted.status, 200);
      assert.equal((await send(service, 'DELETE', '/streams/web', undefined, GOOD)).status, 200);
    });
  });
}
