// The OpenAPI document (issue 24): valid OpenAPI 3.1 by a real validator, exactly the registered
// routes, and each declared operation answering only with the status codes it declares.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { openApiOfStreamsMode } from '../../src/cli/openapi_command.js';
import type { StreamsService } from '../../src/streams/service.js';
import { H_JSON, json, send, startService } from './support.js';

type Operation = { responses: Record<string, unknown>; requestBody?: unknown };
type PathItem = Record<string, unknown> & { parameters?: Array<{ name: string }> };
type Doc = { openapi: string; paths: Record<string, PathItem> };

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** A stream with a dynamic output under a prefix and an http_server input: both add routes. */
const WITH_ENDPOINTS = JSON.stringify({
  input: { http_server: { path: '/in' } },
  output: { dynamic: { prefix: '/ctl' } },
});

async function validate(doc: unknown): Promise<void> {
  const validator = new Validator();
  const result = await validator.validate(doc as Record<string, unknown>);
  assert.equal(validator.version, '3.1');
  assert.deepEqual(result.errors, undefined, JSON.stringify(result.errors, null, 2));
  assert.equal(result.valid, true);
}

describe('OpenAPI document of a running server', () => {
  let svc: StreamsService;
  before(async () => {
    svc = await startService({
      observabilityYaml: 'http:\n  address: 127.0.0.1:0\nlogger:\n  level: OFF\nmetrics:\n  json_api: {}\n',
    });
    assert.equal((await send(svc, 'POST', '/streams/plain', H_JSON)).status, 200);
    assert.equal((await send(svc, 'POST', '/streams/edge?chilled=true', WITH_ENDPOINTS)).status, 200);
  });
  after(() => svc.stop());

  const fetchDoc = async (path = '/openapi.json') => {
    const r = await send(svc, 'GET', path);
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'application/json');
    return json(r) as unknown as Doc;
  };

  it('is valid OpenAPI 3.1 (also at the root path mount)', async () => {
    const doc = await fetchDoc();
    assert.equal(doc.openapi, '3.1.0');
    await validate(doc);
    assert.deepEqual(await fetchDoc('/nekton/openapi.json'), doc);
  });

  it('lists every registered route and nothing else, dynamic ones with their prefix', async () => {
    const doc = await fetchDoc();
    const registered = Object.keys(json(await send(svc, 'GET', '/endpoints'))).sort();
    assert.deepEqual(Object.keys(doc.paths).sort(), registered);
    for (const path of [
      '/streams/{id}/pause',
      '/resources/{type}',
      '/metrics',
      '/edge/ctl/outputs/{id}/uptime',
      '/edge/in',
      '/edge/ready',
      '/plain/ready',
    ]) {
      assert.ok(doc.paths[path], `${path} is documented`);
    }
    const item = doc.paths['/edge/ctl/outputs/{id}'] as Record<string, Operation>;
    assert.deepEqual(Object.keys(item.post?.responses ?? {}).sort(), ['200', '400', '502']);
    const lintOrText = (item.post?.responses['400'] as { content: object } | undefined)?.content ?? {};
    assert.deepEqual(Object.keys(lintOrText), ['text/plain; charset=utf-8', 'application/json']);
  });

  it('follows the routes: a deleted stream’s routes leave the document', async () => {
    assert.equal((await send(svc, 'POST', '/streams/gone', H_JSON)).status, 200);
    assert.ok((await fetchDoc()).paths['/gone/ready']);
    assert.equal((await send(svc, 'DELETE', '/streams/gone')).status, 200);
    assert.equal((await fetchDoc()).paths['/gone/ready'], undefined);
  });

  it('every declared operation answers only with a status it declares', async () => {
    const doc = await fetchDoc();
    const tried: string[] = [];
    for (const [template, item] of Object.entries(doc.paths)) {
      // Component endpoints answer as their component decides; `POST /streams` would replace every stream.
      if (template === '/edge/in' || template === '/streams') continue;
      for (const method of METHODS) {
        const operation = item[method] as Operation | undefined;
        if (!operation) continue;
        const path = template
          .replace('{type}', 'cache')
          .replace(/\{[^}]+\}/g, method === 'post' || method === 'put' ? 'fresh' : 'nope');
        const body = operation.requestBody ? 'nope: {}' : undefined;
        const r = await send(svc, method.toUpperCase(), path, body);
        const declared = Object.keys(operation.responses);
        assert.ok(
          declared.includes(String(r.status)),
          `${method} ${path}: ${r.status} ${r.body} not in ${declared}`,
        );
        tried.push(`${method} ${template}`);
      }
    }
    assert.ok(tried.length >= 25, tried.join('\n'));
  });
});

describe('nekton openapi', () => {
  it('prints a valid document of streams mode, dynamic routes under {stream}', async () => {
    const doc = (await openApiOfStreamsMode({ api: true, sets: [] })) as unknown as Doc;
    await validate(doc);
    for (const path of ['/streams', '/streams/{id}/resume', '/resources/{type}/{id}', '/ready', '/ping']) {
      assert.ok(doc.paths[path], path);
    }
    assert.ok(doc.paths['/{stream}/outputs/{id}']);
    assert.deepEqual(
      doc.paths['/{stream}/inputs']?.parameters?.map((p) => p.name),
      ['stream'],
    );
  });

  it('describes --no-api: only the health routes', async () => {
    const doc = (await openApiOfStreamsMode({ api: false, sets: [] })) as unknown as Doc;
    await validate(doc);
    assert.equal(doc.paths['/streams'], undefined);
    assert.ok(doc.paths['/ready']);
  });
});
