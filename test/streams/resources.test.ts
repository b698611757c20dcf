// Spec §9 scenarios 40–45: shared resources over the API, with nekton decision 4 (GET, DELETE, 409).
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config bodies carry ${ENV} and ${! } on purpose
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { StreamsService } from '../../src/streams/service.js';
import { H, json, send, startService, tempDir } from './support.js';

const LINTED: Array<[string, string, string]> = [
  [
    'cache',
    'memory:\n  default_ttl: 123s\n  nope: nah\n  compaction_interval: 1s',
    '(3,1) field nope not recognised',
  ],
  ['input', 'generate:\n  mapping: root = deleted()\n  nope: nah', '(3,1) field nope not recognised'],
  ['output', 'retry:\n  output:\n    drop: {}\n  nope: nah', '(4,1) field nope not recognised'],
  ['processor', 'split:\n  size: 10\n  nope: nah', '(3,1) field nope not recognised'],
  ['rate_limit', 'local:\n  count: 10\n  nope: nah', '(3,1) field nope not recognised'],
];

describe('resources API', () => {
  let svc: StreamsService;
  before(async () => {
    delete process.env.NEKTON_UNSET;
    svc = await startService();
  });
  after(() => svc.stop());

  it('40: each kind is linted as one component', async () => {
    for (const [type, body, lint] of LINTED) {
      const r = await send(svc, 'POST', `/resources/${type}/foo`, body);
      assert.equal(r.status, 400, `${type}: ${r.body}`);
      assert.equal(r.headers['content-type'], 'application/json');
      assert.equal(r.body, JSON.stringify({ linting_errors: [lint] }), type);
    }
  });

  it('41: the same bodies are accepted when chilled', async () => {
    for (const [type, body] of LINTED) {
      const r = await send(svc, 'POST', `/resources/${type}/foo?chilled=true`, body);
      assert.equal(r.status, 200, `${type}: ${r.body}`);
      assert.equal(r.body, '');
    }
  });

  it('42: an unknown type is 400 with the exact message', async () => {
    const r = await send(svc, 'POST', '/resources/widget/foo', 'memory: {}');
    assert.equal(r.status, 400);
    assert.equal(
      r.body,
      'Var `type` must be set to one of `cache`, `input`, `output`, `processor` or `rate_limit`\n',
    );
  });

  it('43: resources can be read and removed (decision 4)', async () => {
    const r = await send(svc, 'GET', '/resources/cache/foo');
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'application/json');
    assert.deepEqual(json(r), { memory: { default_ttl: '123s', nope: 'nah', compaction_interval: '1s' } });
    const all = json(await send(svc, 'GET', '/resources')) as Record<string, Record<string, unknown>>;
    assert.ok(all.cache && 'foo' in all.cache);
    assert.deepEqual(Object.keys(all), ['cache', 'input', 'output', 'processor', 'rate_limit']);
    assert.equal((await send(svc, 'DELETE', '/resources/cache/foo')).status, 200);
    const gone = await send(svc, 'GET', '/resources/cache/foo');
    assert.equal(gone.status, 404);
    assert.equal(gone.body, 'Resource not found\n');
    assert.equal((await send(svc, 'DELETE', '/resources/cache/foo')).status, 404);
  });

  it('43: a resource used by a stream is only removed with ?force=true', async () => {
    assert.equal((await send(svc, 'POST', '/resources/cache/shared', 'memory: {}')).status, 200);
    const user = {
      ...H,
      pipeline: { processors: [{ cache: { resource: 'shared', operator: 'get', key: 'k' } }] },
    };
    assert.equal((await send(svc, 'POST', '/streams/user', JSON.stringify(user))).status, 200);
    const refused = await send(svc, 'DELETE', '/resources/cache/shared');
    assert.equal(refused.status, 409);
    assert.equal(refused.headers['content-type'], 'application/json');
    assert.deepEqual((json(refused) as { streams: string[] }).streams, ['user']);
    assert.match(String(json(refused).error), /user/);
    assert.equal((await send(svc, 'GET', '/resources/cache/shared')).status, 200);
    assert.equal((await send(svc, 'DELETE', '/resources/cache/shared?force=true')).status, 200);
    assert.equal((await send(svc, 'GET', '/resources/cache/shared')).status, 404);
    assert.equal((await send(svc, 'DELETE', '/streams/user')).status, 200);
  });

  it('43: other verbs are 400', async () => {
    const r = await send(svc, 'PUT', '/resources/cache/foo', 'memory: {}');
    assert.equal(r.status, 400);
    assert.equal(r.body, 'Error: verb not supported: PUT\n');
    assert.equal((await send(svc, 'POST', '/resources')).status, 400);
  });

  it('44: replacing a cache takes effect for a running stream without a restart', async () => {
    const d1 = tempDir();
    const d2 = tempDir();
    const cache = (dir: string) => `file:\n  directory: ${dir}\n`;
    assert.equal((await send(svc, 'POST', '/resources/cache/foocache?chilled=true', cache(d1))).status, 200);
    const stream = {
      input: { http_server: { path: '/post' } },
      output: { cache: { key: '${! json("id") }', target: 'foocache' } },
    };
    assert.equal((await send(svc, 'POST', '/streams/foo', JSON.stringify(stream))).status, 200);
    const first = '{"id":"first","content":"hello world"}';
    assert.equal((await send(svc, 'POST', '/foo/post', first)).status, 200);
    const uptime = (json(await send(svc, 'GET', '/streams/foo')) as { uptime: number }).uptime;
    assert.equal((await send(svc, 'POST', '/resources/cache/foocache?chilled=true', cache(d2))).status, 200);
    const second = '{"id":"second","content":"hello world"}';
    assert.equal((await send(svc, 'POST', '/foo/post', second)).status, 200);
    assert.deepEqual(readdirSync(d1), ['first']);
    assert.deepEqual(readdirSync(d2), ['second']);
    assert.equal(readFileSync(join(d1, 'first'), 'utf8'), first);
    assert.equal(readFileSync(join(d2, 'second'), 'utf8'), second);
    assert.ok(
      (json(await send(svc, 'GET', '/streams/foo')) as { uptime: number }).uptime > uptime,
      'not restarted',
    );
    assert.equal((await send(svc, 'DELETE', '/streams/foo')).status, 200);
  });

  it('45: resource bodies are env-interpolated; chilled tolerates missing variables', async () => {
    const body = 'memory:\n  default_ttl: ${NEKTON_UNSET}\n';
    const strict = await send(svc, 'POST', '/resources/cache/c', body);
    assert.equal(strict.status, 400);
    assert.match(strict.body, /^Error: required environment variables were not set: \[NEKTON_UNSET\]/);
    const chilled = await send(svc, 'POST', '/resources/cache/c?chilled=true', body);
    assert.doesNotMatch(chilled.body, /environment variables/);
  });

  it('resource input/output labels must match the name', async () => {
    const r = await send(svc, 'POST', '/resources/output/out1', 'label: other\ndrop: {}\n');
    assert.equal(r.status, 502);
    assert.equal(r.body, "Error: label 'other' must be empty or match the resource name 'out1'\n");
    assert.equal((await send(svc, 'POST', '/resources/output/out1', 'label: out1\ndrop: {}\n')).status, 200);
  });

  it('bad resource bodies are 400', async () => {
    for (const body of ['{nope', '[1,2]', '']) {
      const r = await send(svc, 'POST', '/resources/cache/bad?chilled=true', body);
      assert.equal(r.status, 400, `${JSON.stringify(body)} → ${r.body}`);
    }
  });
});
