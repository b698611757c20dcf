// Issue 24: `GET /resources/{type}` lists one kind's resources as `{name: config}`, secrets scrubbed
// as every other read.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { StreamsService } from '../../src/streams/service.js';
import { json, send, startService } from './support.js';

describe('GET /resources/{type}', () => {
  let svc: StreamsService;
  before(async () => {
    svc = await startService();
  });
  after(() => svc.stop());

  it('lists the resources of one kind, with secrets scrubbed', async () => {
    assert.equal((await send(svc, 'POST', '/resources/cache/b', 'memory: {}')).status, 200);
    assert.equal((await send(svc, 'POST', '/resources/cache/a', 'memory:\n  default_ttl: 1m')).status, 200);
    const client = 'http_client:\n  url: http://svc:resource-pw-5521@127.0.0.1:9/x\n';
    assert.equal((await send(svc, 'POST', '/resources/output/out', client)).status, 200);

    const caches = await send(svc, 'GET', '/resources/cache');
    assert.equal(caches.status, 200);
    assert.equal(caches.headers['content-type'], 'application/json');
    assert.deepEqual(json(caches), { a: { memory: { default_ttl: '1m' } }, b: { memory: {} } });

    const outputs = await send(svc, 'GET', '/resources/output');
    assert.ok(!outputs.body.includes('resource-pw-5521'), outputs.body);
    assert.ok(outputs.body.includes('!!!SECRET_SCRUBBED!!!'), outputs.body);
    assert.deepEqual(Object.keys(json(outputs)), ['out']);

    assert.deepEqual(json(await send(svc, 'GET', '/resources/rate_limit')), {});
    // The same view as the whole list.
    const all = json(await send(svc, 'GET', '/resources')) as Record<string, unknown>;
    assert.deepEqual(all.cache, json(caches));
  });

  it('refuses an unknown type with the exact message, and other verbs', async () => {
    const r = await send(svc, 'GET', '/resources/widget');
    assert.equal(r.status, 400);
    assert.equal(
      r.body,
      'Var `type` must be set to one of `cache`, `input`, `output`, `processor` or `rate_limit`\n',
    );
    const verb = await send(svc, 'DELETE', '/resources/cache');
    assert.equal(verb.status, 400);
    assert.equal(verb.body, 'Error: verb not supported: DELETE\n');
  });
});
