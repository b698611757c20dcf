import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { EndpointHandler } from '../../src/engine/context.js';
import { HttpServer } from '../../src/http/server.js';
import { readBody } from '../../src/listener/body.js';
import { HttpError } from '../../src/listener/http_error.js';
import { sendJson, sendText } from '../../src/listener/respond.js';
import { send, startServer } from './support.js';

const packageVersion = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

describe('HttpServer built-in endpoints', () => {
  let server: HttpServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  it('answers /ping with pong', async () => {
    const reply = await send(server, '/ping');
    assert.equal(reply.status, 200);
    assert.equal(reply.body, 'pong');
  });

  it('answers /version with the package version in the reference byte layout', async () => {
    const reply = await send(server, '/version');
    assert.equal(reply.status, 200);
    assert.match(reply.body, /^\{"version":"[^"]+", "built":"[^"]+"\}$/);
    assert.equal((JSON.parse(reply.body) as { version: string }).version, packageVersion);
  });

  it('lists registered paths (un-prefixed) with descriptions on /endpoints', async () => {
    server.register('/streams/{id}', 'Manage a stream.', (_req, res) => sendText(res, 200, ''));
    const reply = await send(server, '/endpoints');
    assert.equal(reply.status, 200);
    assert.equal(reply.headers['content-type'], 'application/json');
    const listed = JSON.parse(reply.body) as Record<string, string>;
    assert.equal(listed['/streams/{id}'], 'Manage a stream.');
    for (const path of ['/ping', '/version', '/endpoints']) assert.ok(path in listed, path);
    assert.ok(!Object.keys(listed).some((path) => path.startsWith('/nekton')), 'root mounts are not listed');
    assert.ok(!('/metrics' in listed), 'no metrics handler, no /metrics');
  });

  it('answers unknown paths with Go’s plain-text 404', async () => {
    const reply = await send(server, '/nope');
    assert.equal(reply.status, 404);
    assert.equal(reply.body, '404 page not found\n');
    assert.equal(reply.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(reply.headers['x-content-type-options'], 'nosniff');
    assert.equal((await send(server, '/metrics')).status, 404);
    assert.equal(
      (await send(server, '/debug/config/json')).status,
      404,
      'debug endpoints are off by default',
    );
  });

  it('serves every endpoint under the root path too', async () => {
    assert.equal((await send(server, '/nekton/ping')).body, 'pong');
    assert.equal((await send(server, '/nekton/version')).body, (await send(server, '/version')).body);
    assert.equal((await send(server, '/nektonping')).status, 404);
  });
});

describe('HttpServer registration', () => {
  let server: HttpServer;
  before(async () => {
    server = await startServer({ config: { root_path: '/root' } });
  });
  after(() => server.close());

  it('passes placeholder values and ignores the query string', async () => {
    server.register('/streams/{id}/stats', 'Stats.', (_req, res, params) => sendJson(res, 200, params));
    const reply = await send(server, '/streams/a%20b/stats?x=1');
    assert.equal(reply.body, '{"id":"a b"}');
    assert.equal((await send(server, '/root/streams/foo/stats')).body, '{"id":"foo"}');
    assert.equal((await send(server, '/streams/foo/stats/')).status, 404);
  });

  it('replaces a handler registered again at the same path', async () => {
    server.register('/dup', 'first', (_req, res) => sendText(res, 200, 'first'));
    server.register('/dup', 'second', (_req, res) => sendText(res, 200, 'second'));
    assert.equal((await send(server, '/dup')).body, 'second');
    assert.equal((await send(server, '/root/dup')).body, 'second');
    assert.equal(server.endpoints()['/dup'], 'second');
  });

  it('unregisters one path at both mounts', async () => {
    server.register('/gone', 'x', (_req, res) => sendText(res, 200, 'here'));
    assert.equal(server.unregister('/gone'), true);
    assert.equal((await send(server, '/gone')).status, 404);
    assert.equal((await send(server, '/root/gone')).status, 404);
    assert.equal(server.unregister('/gone'), false);
  });

  it('serves its own routes before any stream endpoint, whatever the order or the mount', async () => {
    const ok =
      (body: string): EndpointHandler =>
      (_req, res) =>
        sendText(res, 200, body);
    server.registerStreamEndpoint('/api/x', 'stream', ok('stream'));
    server.registerStreamEndpoint('/api/y', 'stream', ok('stream'));
    server.register('/api/{id}', 'api', ok('api'));
    server.registerStreamEndpoint('/api/z', 'stream', ok('stream'));
    server.registerStreamEndpoint('/root/api/w', 'stream', ok('stream'));
    for (const path of ['/api/x', '/api/z', '/root/api/x', '/root/api/w']) {
      assert.equal((await send(server, path)).body, 'api', path);
    }
    assert.equal(server.ownRouteFor('/api/x'), '/api/{id}');
    assert.equal(server.ownRouteFor('/api/x/y'), undefined);
    // Removing a stream's endpoint never removes the server's own route at that path.
    server.register('/api/own', 'own', ok('own'));
    server.registerStreamEndpoint('/api/own', 'stream', ok('stream'));
    assert.equal(server.unregisterStreamEndpoint('/api/own'), true);
    assert.equal((await send(server, '/api/own')).body, 'own');
    assert.equal(server.endpoints()['/api/own'], 'own');
    server.unregister('/api/{id}');
    assert.equal((await send(server, '/api/y')).body, 'stream');
  });

  it('unregisters a stream’s paths by segment prefix, sparing look-alike neighbours', async () => {
    const ok =
      (body: string): EndpointHandler =>
      (_req, res) =>
        sendText(res, 200, body);
    server.register('/foo', 'foo', ok('foo'));
    server.register('/foo/ready', 'ready', ok('ready'));
    server.register('/foo/post/', 'post', ok('post'));
    server.register('/foobar/ready', 'other', ok('other'));
    assert.equal(server.unregisterPrefix('/foo'), 3);
    for (const path of ['/foo', '/foo/ready', '/foo/post/x', '/root/foo/ready']) {
      assert.equal((await send(server, path)).status, 404, path);
    }
    assert.equal((await send(server, '/foobar/ready')).body, 'other');
  });
});

describe('HttpServer robustness', () => {
  let server: HttpServer;
  before(async () => {
    server = await startServer();
    server.register('/throws', 'x', () => {
      throw new Error('boom');
    });
    server.register('/rejects', 'x', async () => {
      throw new Error('async boom');
    });
    server.register('/teapot', 'x', async () => {
      throw new HttpError(418, 'Error: short and stout');
    });
    server.register('/echo', 'x', async (req, res) => {
      const body = await readBody(req, 16);
      sendText(res, 200, body.toString());
    });
    server.register('/half', 'x', (_req, res) => {
      res.write('partial');
      throw new Error('after headers');
    });
  });
  after(() => server.close());

  it('turns a throwing handler into a 500 and keeps serving', async () => {
    for (const path of ['/throws', '/rejects']) {
      const reply = await send(server, path);
      assert.equal(reply.status, 500, path);
      assert.equal(reply.body, 'Internal Server Error\n');
    }
    assert.equal((await send(server, '/ping')).body, 'pong');
  });

  it('answers an HttpError with its own status and message', async () => {
    const reply = await send(server, '/teapot');
    assert.equal(reply.status, 418);
    assert.equal(reply.body, 'Error: short and stout\n');
  });

  it('cuts the connection when a handler fails after the response started', async () => {
    await assert.rejects(send(server, '/half'));
    assert.equal((await send(server, '/ping')).body, 'pong');
  });

  it('reads a body within the limit', async () => {
    const reply = await send(server, '/echo', { method: 'POST', body: 'sixteen bytes!!!' });
    assert.equal(reply.status, 200);
    assert.equal(reply.body, 'sixteen bytes!!!');
  });

  it('refuses a body over the limit with 413, declared or streamed', async () => {
    const declared = await send(server, '/echo', { method: 'POST', body: 'x'.repeat(17) });
    assert.equal(declared.status, 413);
    assert.match(declared.body, /16 bytes/);
    const chunked = await send(server, '/echo', {
      method: 'POST',
      headers: { 'Transfer-Encoding': 'chunked' },
      body: 'y'.repeat(1000),
    });
    assert.equal(chunked.status, 413);
    assert.equal((await send(server, '/ping')).body, 'pong');
  });

  it('survives malformed requests', async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(server.port as number, '127.0.0.1', () => socket.write('GARBAGE \x00\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString();
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    assert.match(raw, /^HTTP\/1\.1 400/);
    assert.equal((await send(server, '/ping')).body, 'pong');
  });

  it('drops connections that never finish their headers', async () => {
    const slow = await startServer({ timeouts: { headersMs: 300, requestMs: 300 } });
    try {
      const started = Date.now();
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(slow.port as number, '127.0.0.1', () =>
          socket.write('GET /ping HTTP/1.1\r\nHost: x\r\n'),
        );
        let text = '';
        socket.on('data', (chunk) => {
          text += chunk.toString();
        });
        socket.on('close', () => resolve(text));
        socket.on('error', reject);
      });
      assert.match(raw, /^HTTP\/1\.1 408/);
      assert.ok(Date.now() - started < 5_000);
    } finally {
      await slow.close();
    }
  });
});

describe('HttpServer lifecycle', () => {
  it('registers endpoints but opens no listener when disabled', async () => {
    const server = new HttpServer({ config: { enabled: false } });
    await server.listen();
    assert.equal(server.port, undefined);
    server.register('/x', 'x', (_req, res) => sendText(res, 200, ''));
    assert.equal(server.endpoints()['/x'], 'x');
    await server.close();
  });

  it('closes while a keep-alive connection is idle', async () => {
    const server = await startServer();
    const { request, Agent } = await import('node:http');
    const agent = new Agent({ keepAlive: true });
    await new Promise<void>((resolve, reject) => {
      request({ host: '127.0.0.1', port: server.port, path: '/ping', agent }, (res) => {
        res.resume();
        res.on('end', resolve);
      })
        .on('error', reject)
        .end();
    });
    const started = Date.now();
    await server.close();
    assert.ok(Date.now() - started < 1_000, 'close did not wait for the idle socket');
    agent.destroy();
  });

  it('reports a taken port as a listen error', async () => {
    const first = await startServer();
    try {
      const second = new HttpServer({ config: { address: `127.0.0.1:${first.port}` } });
      await assert.rejects(second.listen(), {
        name: 'ConfigError',
        message: `cannot listen for HTTP requests at 127.0.0.1:${first.port}: address already in use`,
      });
    } finally {
      await first.close();
    }
  });

  it('serves /metrics and /stats from the given handler', async () => {
    const server = await startServer({ metricsHandler: (_req, res) => sendText(res, 200, 'metrics!') });
    try {
      assert.equal((await send(server, '/metrics')).body, 'metrics!');
      assert.equal((await send(server, '/stats')).body, 'metrics!');
      assert.equal((await send(server, '/nekton/stats')).body, 'metrics!');
    } finally {
      await server.close();
    }
  });

  it('serves the debug endpoints when asked to, and 404 for pprof', async () => {
    const server = await startServer({
      config: { debug_endpoints: true },
      sanitisedConfig: () => ({
        http: { address: '0.0.0.0:4195' },
        input: { generate: { mapping: 'root = 1' } },
      }),
    });
    try {
      const json = await send(server, '/debug/config/json');
      assert.equal(
        json.body,
        '{"http":{"address":"0.0.0.0:4195"},"input":{"generate":{"mapping":"root = 1"}}}',
      );
      const yaml = await send(server, '/debug/config/yaml');
      assert.match(yaml.body, /^http:\n {2}address: 0\.0\.0\.0:4195\n/);
      const stack = await send(server, '/debug/stack');
      assert.equal(stack.status, 200);
      assert.match(stack.body, /^pid \d+/);
      assert.doesNotMatch(stack.body, /environmentVariables/, 'the environment holds secrets');
      assert.equal((await send(server, '/debug/pprof/heap')).status, 404);
    } finally {
      await server.close();
    }
  });

  it('answers 502 with an empty body when the config cannot be produced', async () => {
    const server = await startServer({
      config: { debug_endpoints: true },
      sanitisedConfig: () => {
        throw new Error('nope');
      },
    });
    try {
      const reply = await send(server, '/debug/config/json');
      assert.equal(reply.status, 502);
      assert.equal(reply.body, '');
    } finally {
      await server.close();
    }
  });
});
