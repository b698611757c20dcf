// Request bodies are bounded everywhere: `http.max_body_size` on the main server and the same limit
// on own-address http_server inputs; over it is 413 before the body is read (nothing kept past it).
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, describe, it } from 'node:test';
import { HttpServerReader, httpServerInputFields } from '../../src/components/inputs/http_server.js';
import { HttpServer } from '../../src/http/server.js';
import { readBody } from '../../src/listener/body.js';
import { DEFAULT_MAX_BODY_BYTES, setProcessBodyLimit } from '../../src/listener/body_limit.js';
import { parsedConfigOf } from '../components/reference.js';
import { createTestContext } from '../helpers/context.js';
import { rawExchange } from '../security/raw_client.js';
import { send, startServer } from './support.js';

async function ownInput(): Promise<{ reader: HttpServerReader; port: number }> {
  const ctx = createTestContext();
  const config = parsedConfigOf(httpServerInputFields, ctx, { address: '127.0.0.1:0' });
  const reader = new HttpServerReader(config, ctx, {
    status: ctx.interpolation('200', 'status'),
    headers: [],
    metadataHeader: null,
  });
  await reader.connect();
  return { reader, port: reader.boundAddress()?.port as number };
}

/**
 * Streams `totalBytes` chunked to port/path, writing only when the socket drains, and stops as soon
 * as an answer arrives. Resolves with the status and how much was sent by then.
 */
function streamBody(
  port: number,
  path: string,
  totalBytes: number,
): Promise<{ status: number; sent: number; body: string }> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', agent: false }, (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, sent, body: Buffer.concat(parts).toString() }),
      );
      res.on('error', reject);
    });
    req.on('error', (err) => (answered ? undefined : reject(err)));
    const pump = () => {
      while (!answered && sent < totalBytes) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

function declaredHuge(port: number, path: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent: false,
        headers: { 'content-length': String(5 * 1024 ** 3) },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      },
    );
    req.on('error', () => undefined);
    req.write('x'.repeat(100));
  });
}

describe('body limits', { timeout: 30_000 }, () => {
  after(() => setProcessBodyLimit(DEFAULT_MAX_BODY_BYTES));

  it('an own-address http_server input answers 413 to a streamed body over the limit, mid-body', async () => {
    setProcessBodyLimit(256 * 1024);
    const { reader, port } = await ownInput();
    try {
      const total = 32 * 1024 * 1024;
      const reply = await streamBody(port, '/post', total);
      assert.equal(reply.status, 413);
      assert.match(reply.body, /exceeds the limit of 262144 bytes/);
      assert.ok(reply.sent < total, `answered before the whole body was sent (${reply.sent} of ${total})`);
      assert.equal(reader.pendingRequests(), 0, 'nothing queued for the pipeline');
    } finally {
      await reader.close();
    }
  });

  it('an own-address http_server input refuses a declared 5 GiB body at once', async () => {
    const { reader, port } = await ownInput();
    try {
      assert.equal(await declaredHuge(port, '/post'), 413);
    } finally {
      await reader.close();
    }
  });

  it('the main server applies http.max_body_size to every body reader and to declared lengths', async () => {
    const server = await startServer({ config: { max_body_size: 1024 } });
    try {
      server.register('/echo', 'Echoes the body.', async (req, res) => {
        res.end(await readBody(req, 10 * 1024 * 1024));
      });
      const small = await send(server, '/echo', { method: 'POST', body: 'x'.repeat(1000) });
      assert.equal(small.status, 200);
      const streamed = await streamBody(server.port as number, '/echo', 8 * 1024 * 1024);
      assert.equal(streamed.status, 413);
      assert.equal(await declaredHuge(server.port as number, '/ping'), 413);
      assert.equal((await send(server, '/ping')).status, 200);
    } finally {
      await server.close();
    }
  });

  it('closes the connection after a 401 instead of reading the unauthenticated body', async () => {
    const server = await startServer({
      config: {
        basic_auth: {
          enabled: true,
          username: 'admin',
          password_hash: 'K7gNU3sdo+OL0wNhqoVWhr3g6s1xYv72ol/pe/Unols=',
          algorithm: 'sha256',
        },
      },
    });
    try {
      const head = `POST /ping HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nTransfer-Encoding: chunked\r\n\r\n`;
      const answer = await rawExchange(server.port as number, `${head}4\r\nabcd\r\n`, { after: 'read' });
      assert.match(answer, /^HTTP\/1\.1 401/);
      assert.match(answer, /\r\nConnection: close\r\n/i);
    } finally {
      await server.close();
    }
  });

  it('refuses a max_body_size that is not a positive whole number of bytes', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      assert.throws(() => new HttpServer({ config: { max_body_size: bad } }), /http\.max_body_size/);
    }
  });
});
