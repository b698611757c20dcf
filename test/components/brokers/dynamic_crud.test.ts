// Spec §9 scenarios 59–61 (and the endpoint rules of §6.4) against the dynamic CRUD layer
// directly, with injectable update/delete hooks, served by a real HTTP server on 127.0.0.1.
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { DynamicCrud, dynamicBasePath } from '../../../src/components/brokers/dynamic_crud.js';
import { parseDurationNs } from '../../../src/config/duration.js';
import type { EndpointHandler } from '../../../src/engine/context.js';
import { Router } from '../../../src/http/router.js';

interface Reply {
  status: number;
  body: string;
}

class Harness {
  readonly router = new Router<EndpointHandler>();
  server!: Server;
  updates: string[] = [];
  removals: string[] = [];
  failUpdate = false;
  failDelete = false;
  crud = new DynamicCrud('inputs', {
    update: async (id, body) => {
      if (this.failUpdate) throw new Error('update hook failed');
      this.updates.push(`${id}:${body.toString()}`);
    },
    remove: async (id) => {
      if (this.failDelete) throw new Error('delete hook failed');
      this.removals.push(id);
    },
  });

  async start(): Promise<void> {
    this.crud.register((path, _d, handler) => this.router.add(path, handler), '');
    this.server = createServer((req, res) => {
      const found = this.router.match((req.url ?? '/').split('?')[0]!);
      if (!found) {
        res.statusCode = 404;
        res.end('404 page not found\n');
        return;
      }
      Promise.resolve(found.value(req, res, found.params)).catch(() => res.end());
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  send(method: string, path: string, body?: string): Promise<Reply> {
    const { port } = this.server.address() as AddressInfo;
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method, path, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }
}

describe('dynamic CRUD endpoints', () => {
  let h: Harness;
  before(async () => {
    h = new Harness();
    await h.start();
  });
  after(() => h.server.close());

  it('59: DELETE while the delete hook fails is 502 and removes nothing; then 200, removed once', async () => {
    h.failDelete = true;
    const failed = await h.send('DELETE', '/inputs/foo');
    assert.equal(failed.status, 502);
    assert.equal(failed.body, 'Error: delete hook failed\n');
    assert.deepEqual(h.removals, []);
    h.failDelete = false;
    assert.equal((await h.send('DELETE', '/inputs/foo')).status, 200);
    assert.deepEqual(h.removals, ['foo']);
  });

  it('60: GET before start is 404; a byte-identical re-POST is a no-op even when the hook would fail', async () => {
    const missing = await h.send('GET', '/inputs/foo');
    assert.equal(missing.status, 404);
    assert.equal(missing.body, "Dynamic component 'foo' is not active\n");
    const posted = await h.send('POST', '/inputs/foo', 'hello world');
    assert.equal(posted.status, 200);
    assert.equal(posted.body, '');
    assert.deepEqual(h.updates, ['foo:hello world']);
    h.crud.started('foo', 'foo bar');
    assert.deepEqual(await h.send('GET', '/inputs/foo'), { status: 200, body: 'foo bar' });
    h.failUpdate = true;
    assert.equal((await h.send('POST', '/inputs/foo', 'hello world')).status, 200);
    assert.deepEqual(h.updates, ['foo:hello world']);
    assert.deepEqual(await h.send('GET', '/inputs/foo'), { status: 200, body: 'foo bar' });
    // A different body does reach the hook, whose failure is 502.
    const changed = await h.send('POST', '/inputs/foo', 'other');
    assert.equal(changed.status, 502);
    assert.equal(changed.body, 'Error: update hook failed\n');
    h.failUpdate = false;
    // After a DELETE the same bytes are applied again.
    assert.equal((await h.send('DELETE', '/inputs/foo')).status, 200);
    h.crud.stopped('foo');
    assert.equal((await h.send('POST', '/inputs/foo', 'hello world')).status, 200);
    assert.deepEqual(h.updates, ['foo:hello world', 'foo:hello world']);
    await h.send('DELETE', '/inputs/foo');
  });

  it('61: the listing shows running and stopped members with their configs', async () => {
    const fresh = new Harness();
    await fresh.start();
    try {
      assert.deepEqual(await fresh.send('GET', '/inputs'), { status: 200, body: '{}' });
      fresh.crud.started('bar', 'test: sanitised');
      assert.equal((await fresh.send('POST', '/inputs/foo', 'x')).status, 200);
      fresh.crud.started('foo', '\ntest: second sanitised\n');
      const both = (await fresh.send('GET', '/inputs')).body;
      assert.ok(both.includes('{"bar":{"uptime":"'), both);
      assert.ok(both.includes('"config":{"test":"sanitised"}'), both);
      assert.ok(both.includes('"foo":{"uptime":"'), both);
      assert.ok(both.includes('"config":{"test":"second sanitised"}'), both);
      fresh.crud.stopped('foo');
      assert.equal((await fresh.send('DELETE', '/inputs/bar')).status, 200);
      fresh.crud.stopped('bar');
      assert.equal(
        (await fresh.send('GET', '/inputs')).body,
        '{"foo":{"uptime":"stopped","config":{"test":"second sanitised"},"config_raw":"\\ntest: second sanitised\\n"}}',
      );
    } finally {
      fresh.server.close();
    }
  });

  it('uptime: a duration while running, `stopped` after, 404 when unknown', async () => {
    h.crud.started('up', 'a: b');
    await new Promise((r) => setTimeout(r, 5));
    const running = await h.send('GET', '/inputs/up/uptime');
    assert.equal(running.status, 200);
    assert.ok(parseDurationNs(running.body) > 1, running.body);
    h.crud.stopped('up');
    assert.deepEqual(await h.send('GET', '/inputs/up/uptime'), { status: 200, body: 'stopped' });
    const unknown = await h.send('GET', '/inputs/nope/uptime');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body, "Dynamic component 'nope' is unknown\n");
  });

  it('58: other verbs are 502 verb not supported', async () => {
    assert.deepEqual(await h.send('PUT', '/inputs/foo'), {
      status: 502,
      body: 'Error: verb not supported: PUT\n',
    });
  });

  it('paths: the prefix is joined and normalised to start with /', () => {
    assert.equal(dynamicBasePath('', 'outputs'), '/outputs');
    assert.equal(dynamicBasePath('/foo', 'outputs'), '/foo/outputs');
    assert.equal(dynamicBasePath('/foo/', 'outputs'), '/foo/outputs');
    assert.equal(dynamicBasePath('foo', 'inputs'), '/foo/inputs');
  });
});
