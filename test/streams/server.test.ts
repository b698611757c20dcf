// Spec §9 scenarios 46–52 through the streams service: built-in endpoints, root path, --no-api,
// endpoint prefixing off, and CORS / basic auth configured from the observability file.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError } from '../../src/engine/errors.js';
import { waitFor } from '../helpers/kit.js';
import { H, H_JSON, json, send, startService, testRegistry } from './support.js';

const QUIET = 'logger:\n  level: OFF\n';

describe('the streams-mode server', () => {
  it('46: ping, version and endpoints', async () => {
    const svc = await startService();
    try {
      const ping = await send(svc, 'GET', '/ping');
      assert.equal(ping.status, 200);
      assert.equal(ping.body, 'pong');
      const version = await send(svc, 'GET', '/version');
      assert.equal(version.status, 200);
      assert.match(version.body, /^\{"version":"[^"]*", "built":"[^"]*"\}$/);
      const endpoints = json(await send(svc, 'GET', '/endpoints'));
      for (const path of [
        '/ready',
        '/streams',
        '/streams/{id}',
        '/streams/{id}/stats',
        '/resources/{type}/{id}',
      ]) {
        assert.ok(path in endpoints, path);
      }
    } finally {
      await svc.stop();
    }
  });

  it('metrics: json_api in the observability file serves JSON on /metrics, with per-stream series', async () => {
    const svc = await startService({
      observabilityYaml: `http:\n  address: 127.0.0.1:0\n${QUIET}metrics:\n  json_api: {}\n`,
    });
    try {
      assert.equal((await send(svc, 'POST', '/streams/foo', H_JSON)).status, 200);
      const metrics = await send(svc, 'GET', '/metrics');
      assert.equal(metrics.status, 200);
      assert.match(String(metrics.headers['content-type']), /^application\/json/);
      assert.equal(typeof json(metrics), 'object');
    } finally {
      await svc.stop();
    }
  });

  it('47: every endpoint also answers under the root path', async () => {
    const svc = await startService();
    try {
      assert.equal((await send(svc, 'POST', '/nekton/streams/foo', H_JSON)).status, 200);
      const plain = await send(svc, 'GET', '/streams');
      const rooted = await send(svc, 'GET', '/nekton/streams');
      assert.equal(rooted.status, 200);
      assert.deepEqual(Object.keys(json(rooted)), Object.keys(json(plain)));
      assert.deepEqual(Object.keys(json(rooted)), ['foo']);
      assert.equal((await send(svc, 'GET', '/nekton/foo/ready')).status === 404, false);
    } finally {
      await svc.stop();
    }
  });

  it('48: --no-api registers only /ready', async () => {
    const svc = await startService({ api: false });
    try {
      const manager = Object.keys(json(await send(svc, 'GET', '/endpoints'))).filter((p) =>
        /^\/(ready|streams|resources)/.test(p),
      );
      assert.deepEqual(manager, ['/ready']);
      const list = await send(svc, 'GET', '/streams');
      assert.equal(list.status, 404);
      assert.equal(list.body, '404 page not found\n');
      assert.equal((await send(svc, 'POST', '/resources/cache/x', 'memory: {}')).status, 404);
      const ready = await send(svc, 'GET', '/ready');
      assert.equal(ready.status, 200);
      assert.equal(ready.body, 'OK');
    } finally {
      await svc.stop();
    }
  });

  it('decision 6: with prefixing off a stream never replaces the aggregated /ready', async () => {
    const svc = await startService({ prefixStreamEndpoints: false });
    try {
      assert.equal((await send(svc, 'POST', '/streams/foo', H_JSON)).status, 200);
      assert.equal((await send(svc, 'GET', '/foo/ready')).status, 404);
      const ready = await waitFor(
        async () => {
          const r = await send(svc, 'GET', '/ready');
          return r.status === 200 && r;
        },
        { message: '/ready 200' },
      );
      assert.equal(ready.body, 'OK');
      const clash = { input: { http_server: { path: '/ready' } }, output: { drop: {} } };
      const r = await send(svc, 'POST', '/streams/clash', JSON.stringify(clash));
      assert.equal(r.status, 502);
      assert.match(r.body, /reserved/);
      assert.equal((await send(svc, 'GET', '/ready')).body, 'OK');
    } finally {
      await svc.stop();
    }
  });

  it('49: CORS with * answers a preflight', async () => {
    const svc = await startService({
      observabilityYaml: `${QUIET}http:\n  address: 127.0.0.1:0\n  cors:\n    enabled: true\n    allowed_origins: ['*']\n`,
    });
    try {
      const r = await send(svc, 'OPTIONS', '/version', undefined, {
        Origin: 'meow',
        'Access-Control-Request-Method': 'POST',
      });
      assert.equal(r.status, 200);
      assert.equal(r.headers['access-control-allow-origin'], '*');
    } finally {
      await svc.stop();
    }
  });

  it('50: CORS with a list of origins', async () => {
    const svc = await startService({
      observabilityYaml: `${QUIET}http:\n  address: 127.0.0.1:0\n  cors:\n    enabled: true\n    allowed_origins: [foo, bar]\n`,
    });
    try {
      for (const origin of ['foo', 'bar']) {
        const r = await send(svc, 'OPTIONS', '/streams', undefined, {
          Origin: origin,
          'Access-Control-Request-Method': 'POST',
        });
        assert.equal(r.status, 200);
        assert.equal(r.headers['access-control-allow-origin'], origin);
      }
      const baz = await send(svc, 'OPTIONS', '/streams', undefined, {
        Origin: 'baz',
        'Access-Control-Request-Method': 'POST',
      });
      assert.equal(baz.status, 200);
      assert.equal(baz.headers['access-control-allow-origin'], undefined);
    } finally {
      await svc.stop();
    }
  });

  it('51: CORS without origins refuses to start', async () => {
    await assert.rejects(
      startService({
        observabilityYaml: `${QUIET}http:\n  address: 127.0.0.1:0\n  cors:\n    enabled: true\n`,
      }),
      (err: Error) =>
        err instanceof ConfigError && err.message.includes('must specify at least one allowed origin'),
    );
  });

  it('52: basic auth guards the API', async () => {
    const auth = (user: string, pass: string) => ({
      Authorization: `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`,
    });
    const svc = await startService({
      observabilityYaml: `${QUIET}http:
  address: 127.0.0.1:0
  basic_auth:
    enabled: true
    username: myuser
    password_hash: K7gNU3sdo+OL0wNhqoVWhr3g6s1xYv72ol/pe/Unols=
    algorithm: sha256
    salt: EzrwNJYw2wkErVVV1P36FQ==
`,
    });
    try {
      assert.equal((await send(svc, 'GET', '/version', undefined, auth('myuser', 'secret'))).status, 200);
      assert.equal((await send(svc, 'GET', '/streams', undefined, auth('myuser', 'secret'))).status, 200);
      assert.equal((await send(svc, 'GET', '/version', undefined, auth('myuser', 'wrong'))).status, 401);
      const none = await send(svc, 'GET', '/streams');
      assert.equal(none.status, 401);
      assert.ok(none.headers['www-authenticate']);
    } finally {
      await svc.stop();
    }
    const open = await startService();
    try {
      assert.equal((await send(open, 'GET', '/version', undefined, auth('myuser', 'wrong'))).status, 200);
    } finally {
      await open.stop();
    }
  });

  it('67: a dynamic output with prefix /p in stream s1 is served at /s1/p/outputs', {
    skip: !testRegistry.has('output', 'dynamic') && 'the dynamic output has not landed yet',
  }, async () => {
    const svc = await startService();
    try {
      const stream = { input: H.input, output: { dynamic: { prefix: '/p' } } };
      assert.equal((await send(svc, 'POST', '/streams/s1', JSON.stringify(stream))).status, 200);
      const r = await send(svc, 'GET', '/s1/p/outputs');
      assert.equal(r.status, 200);
      assert.equal(r.body, '{}');
      assert.equal((await send(svc, 'DELETE', '/streams/s1')).status, 200);
      assert.equal((await send(svc, 'GET', '/s1/p/outputs')).status, 404);
    } finally {
      await svc.stop();
    }
  });
});
