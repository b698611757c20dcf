// Spec §9 scenarios 1–13 and 29–34: the streams CRUD API against a real server.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseDurationNs } from '../../src/config/duration.js';
import type { StreamsService } from '../../src/streams/service.js';
import { waitFor } from '../helpers/kit.js';
import { H_BUF_JSON, H_JSON, json, send, startService } from './support.js';

const H_YAML = 'input:\n  generate:\n    mapping: root = deleted()\noutput:\n  drop: {}\n';
const H_BUF_YAML = `${H_YAML}buffer:\n  memory: {}\n`;

describe('streams CRUD', () => {
  let svc: StreamsService;
  before(async () => {
    svc = await startService();
  });
  after(() => svc.stop());

  it('1: a fresh server lists no streams', async () => {
    const r = await send(svc, 'GET', '/streams');
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'application/json');
    assert.equal(r.body, '{}');
  });

  it('2: a fresh server is ready', async () => {
    const r = await send(svc, 'GET', '/ready');
    assert.equal(r.status, 200);
    assert.equal(r.body, 'OK');
  });

  it('3: PUT of an unknown id is 404', async () => {
    const r = await send(svc, 'PUT', '/streams/foo', H_JSON);
    assert.equal(r.status, 404);
    assert.equal(r.body, 'Stream not found\n');
  });

  it('4: GET and PATCH of an unknown id are 404', async () => {
    assert.equal((await send(svc, 'GET', '/streams/foo')).status, 404);
    assert.equal((await send(svc, 'PATCH', '/streams/foo', H_JSON)).status, 404);
  });

  it('5: POST creates, GET reads it back', async () => {
    const created = await send(svc, 'POST', '/streams/foo', H_JSON);
    assert.equal(created.status, 200);
    assert.equal(created.body, '');
    const r = await send(svc, 'GET', '/streams/foo');
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'application/json');
    const body = json(r) as {
      active: boolean;
      uptime: number;
      uptime_str: string;
      config: typeof import('./support.js').H;
    };
    assert.equal(body.active, true);
    assert.equal(typeof body.uptime, 'number');
    assert.ok(parseDurationNs(body.uptime_str) >= 0);
    assert.equal(body.config.input.generate.mapping, 'root = deleted()');
    assert.deepEqual(Object.keys(body).slice(0, 4), ['active', 'uptime', 'uptime_str', 'config']);
  });

  it('decision 5: GET adds a status object', async () => {
    const body = json(await send(svc, 'GET', '/streams/foo')) as { status: Record<string, unknown> };
    assert.deepEqual(Object.keys(body.status), ['input_connected', 'output_connected', 'last_error']);
    await waitFor(
      async () => {
        const s = (json(await send(svc, 'GET', '/streams/foo')) as { status: Record<string, unknown> })
          .status;
        return s.input_connected === true && s.output_connected === true && s.last_error === null;
      },
      { message: 'foo connected' },
    );
  });

  it('6: POST of an existing id is 400 Stream already exists', async () => {
    const r = await send(svc, 'POST', '/streams/foo', H_JSON);
    assert.equal(r.status, 400);
    assert.equal(r.body, 'Stream already exists\n');
  });

  it('7: the list shows foo as active', async () => {
    const r = await send(svc, 'GET', '/streams');
    assert.equal(r.status, 200);
    const foo = json(r).foo as Record<string, unknown>;
    assert.equal(foo.active, true);
    assert.deepEqual(Object.keys(foo), ['active', 'uptime', 'uptime_str']);
  });

  it('8: /ready eventually answers OK', async () => {
    await waitFor(
      async () => {
        const r = await send(svc, 'GET', '/ready');
        return r.status === 200 && r.body === 'OK';
      },
      { message: '/ready 200' },
    );
  });

  it('9: GET of another id is 404 Stream not found', async () => {
    const r = await send(svc, 'GET', '/streams/bar');
    assert.equal(r.status, 404);
    assert.equal(r.body, 'Stream not found\n');
  });

  it('10: PUT replaces the config', async () => {
    const r = await send(svc, 'PUT', '/streams/foo', H_BUF_JSON);
    assert.equal(r.status, 200);
    assert.equal(r.body, '');
    const body = json(await send(svc, 'GET', '/streams/foo')) as {
      active: boolean;
      config: { buffer: unknown };
    };
    assert.equal(body.active, true);
    assert.deepEqual(body.config.buffer, { memory: {} });
  });

  it('10: an explicit buffer type is kept as written', async () => {
    const config = JSON.stringify({ ...JSON.parse(H_JSON), buffer: { type: 'memory' } });
    assert.equal((await send(svc, 'PUT', '/streams/foo', config)).status, 200);
    const body = json(await send(svc, 'GET', '/streams/foo')) as { config: { buffer: { type: string } } };
    assert.equal(body.config.buffer.type, 'memory');
  });

  it('11: PUT of an identical config restarts the stream', async () => {
    // An uptime of a second at least: the restart shows however slow the PUT is on a loaded machine.
    const uptime = async () => (json(await send(svc, 'GET', '/streams/foo')) as { uptime: number }).uptime;
    await waitFor(async () => (await uptime()) >= 1, { message: 'an uptime of a second' });
    const before = await uptime();
    assert.equal((await send(svc, 'PUT', '/streams/foo', H_BUF_JSON)).status, 200);
    const afterPut = await uptime();
    assert.ok(afterPut < before, `uptime ${afterPut} should be below ${before}`);
  });

  it('12: DELETE removes, a second DELETE is 404', async () => {
    const r = await send(svc, 'DELETE', '/streams/foo');
    assert.equal(r.status, 200);
    assert.equal(r.body, '');
    assert.equal((await send(svc, 'DELETE', '/streams/foo')).status, 404);
    assert.equal((await send(svc, 'GET', '/streams/foo')).status, 404);
  });

  it('13: the YAML variant of the lifecycle', async () => {
    assert.equal((await send(svc, 'PUT', '/streams/foo?chilled=true', H_YAML)).status, 404);
    assert.equal((await send(svc, 'POST', '/streams/foo?chilled=true', H_YAML)).status, 200);
    assert.equal((await send(svc, 'POST', '/streams/foo', H_YAML)).status, 400);
    assert.equal((await send(svc, 'PUT', '/streams/foo?chilled=true', H_BUF_YAML)).status, 200);
    const body = json(await send(svc, 'GET', '/streams/foo')) as { config: { buffer: unknown } };
    assert.deepEqual(body.config.buffer, { memory: {} });
    assert.equal((await send(svc, 'DELETE', '/streams/foo')).status, 200);
    assert.equal((await send(svc, 'DELETE', '/streams/foo')).status, 404);
  });

  it('29: unsupported verbs are 400', async () => {
    const del = await send(svc, 'DELETE', '/streams');
    assert.equal(del.status, 400);
    assert.equal(del.body, 'Error: method not supported\n');
    const options = await send(svc, 'OPTIONS', '/streams');
    assert.equal(options.status, 400);
    await send(svc, 'POST', '/streams/verbs', H_JSON);
    const head = await send(svc, 'TRACE', '/streams/verbs');
    assert.equal(head.status, 400);
    assert.equal(head.body, 'Error: verb not supported: TRACE\n');
    assert.equal((await send(svc, 'DELETE', '/streams/verbs')).status, 200);
  });
});
