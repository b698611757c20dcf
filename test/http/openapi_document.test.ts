// The OpenAPI document of the built-in, debug and Bloblang playground routes (issue 24): valid 3.1,
// exactly the registered routes, and each declared operation answering only declared statuses.
// The streams API's document is tested in test/streams/openapi.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { HttpServer } from '../../src/http/server.js';
import { sendText } from '../../src/listener/respond.js';
import { registerPlayground } from '../../src/playground/routes.js';
import { send, startServer } from './support.js';

type Operation = { responses: Record<string, unknown> };
type Doc = { paths: Record<string, Record<string, unknown>> };

describe('OpenAPI document of the built-in and playground routes', () => {
  let server: HttpServer;
  before(async () => {
    server = await startServer({
      config: { debug_endpoints: true },
      metricsHandler: (_req, res) => sendText(res, 200, 'metric 1\n'),
    });
    registerPlayground(server);
  });
  after(() => server.close());

  it('is valid OpenAPI 3.1 and lists exactly the registered routes', async () => {
    const r = await send(server, '/openapi.json');
    assert.equal(r.status, 200);
    const doc = JSON.parse(r.body) as Doc;
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Record<string, unknown>);
    assert.deepEqual(result.errors, undefined, JSON.stringify(result.errors, null, 2));
    assert.equal(validator.version, '3.1');
    const registered = Object.keys(JSON.parse((await send(server, '/endpoints')).body)).sort();
    assert.deepEqual(Object.keys(doc.paths).sort(), registered);
    for (const path of [
      '/',
      '/execute',
      '/metrics',
      '/stats',
      '/debug/config/yaml',
      '/debug/stack',
      '/ping',
    ]) {
      assert.ok(doc.paths[path], path);
    }
  });

  it('every declared operation answers only with a status it declares', async () => {
    const doc = server.openApi() as unknown as Doc;
    let tried = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
        const operation = item[method] as Operation | undefined;
        if (!operation) continue;
        const headers = path === '/execute' ? { 'content-type': 'application/json' } : undefined;
        const body = path === '/execute' ? '{"mapping":"root = this.a","input":"{\\"a\\":1}"}' : undefined;
        const r = await send(server, path, { method: method.toUpperCase(), headers, body });
        assert.ok(
          Object.keys(operation.responses).includes(String(r.status)),
          `${method} ${path}: ${r.status} ${r.body.slice(0, 200)}`,
        );
        tried++;
      }
    }
    assert.ok(tried >= 11, `${tried} operations`);
  });
});
