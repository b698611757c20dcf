// Basic auth with a slow hash: an unknown user costs the same hash as a wrong password (no user
// enumeration by timing), a flood of wrong passwords is bounded (429 past the queue) and never
// delays credentials that verified before, and the API warns when it is open to the network.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { describe, it } from 'node:test';
import { createBasicAuthenticator } from '../../src/http/basic-auth.js';
import { HttpServer } from '../../src/http/server.js';
import { basicAuthHeader } from '../http/support.js';

const BCRYPT_OF_SECRET = 'JDJhJDEwJHRDMWs2NHc5VjA0R3JIdEE2QzQ2SC5na3o3WWNUUWlQc1RNbVNCUU8yOG8uSWg4YUUvaUcu';

function bcryptAuth() {
  return createBasicAuthenticator({
    enabled: true,
    realm: 'r',
    username: 'myuser',
    password_hash: BCRYPT_OF_SECRET,
    algorithm: 'bcrypt',
    salt: '',
  });
}

const requestWith = (user: string, password: string) =>
  ({ headers: { authorization: basicAuthHeader(user, password) } }) as IncomingMessage;

describe('basic auth work', () => {
  it('runs the hash for an unknown user just as for a wrong password', async () => {
    const auth = bcryptAuth();
    const unknownUser = auth.check(requestWith('nobody', 'secret'));
    const wrongPassword = auth.check(requestWith('myuser', 'wrong'));
    assert.ok(unknownUser instanceof Promise, 'an unknown user is not refused before hashing');
    assert.ok(wrongPassword instanceof Promise);
    assert.equal(await unknownUser, 'denied');
    assert.equal(await wrongPassword, 'denied');
  });

  it('bounds a flood of wrong passwords and still answers verified credentials at once', async () => {
    const auth = bcryptAuth();
    assert.equal(await auth.check(requestWith('myuser', 'secret')), 'ok');
    const flood = Array.from({ length: 40 }, (_, i) => auth.check(requestWith('myuser', `wrong${i}`)));
    assert.equal(auth.check(requestWith('myuser', 'secret')), 'ok', 'verified credentials skip the queue');
    const verdicts = await Promise.all(flood);
    assert.ok(verdicts.includes('busy'), 'past the queue the answer is busy (429), not a longer wait');
    assert.ok(!verdicts.includes('ok'));
    assert.ok(verdicts.filter((v) => v === 'denied').length >= 16, 'the queued ones were checked');
  });

  it('hashes off the event loop: the main thread idles while bcrypt checks run', async () => {
    const auth = bcryptAuth();
    await auth.check(requestWith('myuser', 'warm-up')); // starts the worker and loads bcryptjs
    const before = performance.eventLoopUtilization();
    const checks = Array.from({ length: 6 }, (_, i) => auth.check(requestWith('myuser', `wrong${i}`)));
    assert.deepEqual(await Promise.all(checks), Array(6).fill('denied'));
    // Utilisation is the share of the time the loop was busy: bcryptjs on the main thread kept it
    // near 1 for the whole wait; on a worker the loop only waits for the answers.
    const { utilization } = performance.eventLoopUtilization(before);
    assert.ok(utilization < 0.5, `event loop busy ${Math.round(utilization * 100)}% of the wait`);
  });

  it('warns at start when the streams API listens beyond loopback without basic auth', async () => {
    const warnings: string[] = [];
    const logger = { error: () => undefined, warn: (msg: string) => warnings.push(msg) };
    const open = new HttpServer({ config: { address: '0.0.0.0:0' }, logger });
    open.register('/streams', 'The streams API.', (_req, res) => {
      res.end();
    });
    await open.listen();
    await open.close();
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] as string, /without http\.basic_auth/);
    const local = new HttpServer({ config: { address: '127.0.0.1:0' }, logger });
    local.register('/streams', 'The streams API.', (_req, res) => {
      res.end();
    });
    await local.listen();
    await local.close();
    assert.equal(warnings.length, 1, 'no warning on loopback');
  });
});
