// The one listener module: the main server and own-address http_server components answer CORS,
// errors and oversized bodies alike, and no client socket (a reset after an upgrade) can crash it.
import assert from 'node:assert/strict';
import { type IncomingHttpHeaders, request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { HttpServerReader, httpServerInputFields } from '../../src/components/inputs/http_server.js';
import { HttpServerWriter, httpServerOutputFields } from '../../src/components/outputs/http_server.js';
import type { HttpServer } from '../../src/http/server.js';
import { DEFAULT_MAX_BODY_BYTES, setProcessBodyLimit } from '../../src/listener/body_limit.js';
import { openListener } from '../../src/listener/listener.js';
import { parsedConfigOf } from '../components/reference.js';
import { createTestContext } from '../helpers/context.js';
import { startServer } from '../http/support.js';
import { rawExchange, upgradeRequest } from '../security/raw_client.js';

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

function call(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        headers: options.headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const ORIGIN = 'https://app.example';

async function ownInput(overrides: Record<string, unknown> = {}) {
  const ctx = createTestContext();
  const config = parsedConfigOf(httpServerInputFields, ctx, { address: '127.0.0.1:0', ...overrides });
  const reader = new HttpServerReader(config, ctx, {
    status: config.sync_response.status,
    headers: [],
    metadataHeader: null,
  });
  await reader.connect();
  return { reader, port: reader.boundAddress()?.port as number };
}

async function ownOutput() {
  const config = parsedConfigOf(httpServerOutputFields, createTestContext(), {
    address: '127.0.0.1:0',
    ws_path: '/ws',
  });
  const writer = new HttpServerWriter(config);
  await writer.connect();
  return { writer, port: writer.boundAddress()?.port as number };
}

/** The CORS part of an answer: its status and every access-control and vary header. */
function corsOf(reply: Reply): Record<string, unknown> {
  const picked: Record<string, unknown> = { status: reply.status };
  for (const [k, v] of Object.entries(reply.headers))
    if (k.startsWith('access-control-') || k === 'vary') picked[k] = v;
  return picked;
}

describe('one listener for the main server and own-address components', () => {
  let main: HttpServer;
  let input: Awaited<ReturnType<typeof ownInput>>;
  before(async () => {
    main = await startServer({
      config: { cors: { enabled: true, allowed_origins: [ORIGIN, 'https://other.example'] } },
    });
    main.registerStreamEndpoint('/post', 'A stand-in input.', (_req, res) => {
      res.end();
    });
    input = await ownInput({ cors: { enabled: true, allowed_origins: [ORIGIN, 'https://other.example'] } });
  });
  after(async () => {
    await main.close();
    await input.reader.close();
  });

  it('answers CORS preflights the same way', async () => {
    const preflights: Record<string, string>[] = [
      {
        origin: ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'X-Trace',
      },
      { origin: ORIGIN, 'access-control-request-method': 'TRACE' },
      { origin: ORIGIN },
      { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    ];
    for (const headers of preflights) {
      const fromMain = await call(main.port as number, '/post', { method: 'OPTIONS', headers });
      const fromOwn = await call(input.port, '/post', { method: 'OPTIONS', headers });
      assert.deepEqual(corsOf(fromOwn), corsOf(fromMain), JSON.stringify(headers));
    }
    const allowed = await call(input.port, '/post', {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'POST' },
    });
    assert.equal(allowed.status, 200);
    assert.equal(allowed.headers['access-control-allow-origin'], ORIGIN);
  });

  it('writes error bodies in one format (plain text, nosniff, one newline, a length)', async () => {
    const output = await ownOutput();
    try {
      const answers = [
        await call(main.port as number, '/no/such/path'),
        await call(input.port, '/no/such/path'),
        await call(input.port, '/post', { method: 'GET' }),
        await call(output.port, '/no/such/path'),
      ];
      for (const reply of answers) {
        assert.ok(reply.status >= 400, String(reply.status));
        assert.equal(reply.headers['content-type'], 'text/plain; charset=utf-8');
        assert.equal(reply.headers['x-content-type-options'], 'nosniff');
        assert.match(reply.body, /^[^\n]+\n$/);
        assert.equal(reply.headers['content-length'], String(Buffer.byteLength(reply.body)));
      }
    } finally {
      await output.writer.close();
    }
  });
});

describe('the body limit on every listener', () => {
  after(() => setProcessBodyLimit(DEFAULT_MAX_BODY_BYTES));

  it('refuses a body over http.max_body_size with 413 on the main server and an own-address input', async () => {
    const main = await startServer({ config: { max_body_size: 1024 } });
    main.registerStreamEndpoint('/post', 'A stand-in input.', (_req, res) => {
      res.end();
    });
    const own = await ownInput();
    try {
      const body = 'x'.repeat(2048);
      for (const port of [main.port as number, own.port]) {
        const reply = await call(port, '/post', { method: 'POST', body });
        assert.equal(reply.status, 413, `port ${port}`);
        assert.equal(reply.headers.connection, 'close');
        assert.match(reply.body, /exceeds the limit of 1024 bytes\n$/);
      }
    } finally {
      await main.close();
      await own.reader.close();
    }
  });
});

describe('upgrade sockets on own-address listeners', () => {
  it('survive a reset right after the upgrade request, websocket path or not', async () => {
    const output = await ownOutput();
    const input = await ownInput();
    try {
      for (let round = 0; round < 20; round++) {
        await Promise.all(
          [
            [output.port, '/ws'],
            [output.port, '/elsewhere'],
            [input.port, '/post'],
          ].map(([port, path]) =>
            rawExchange(port as number, upgradeRequest(path as string), {
              after: 'reset',
              delayMs: round % 3,
            }),
          ),
        );
      }
      assert.equal((await call(output.port, '/no/such/path')).status, 404);
      assert.equal((await call(input.port, '/post', { method: 'GET' })).status, 405);
    } finally {
      await output.writer.close();
      await input.reader.close();
    }
  });

  it('turn a port already taken into the caller error', async () => {
    const first = await openListener({
      address: '127.0.0.1:0',
      onRequest: (_req, res) => res.end(),
      listenError: (err) => err,
    });
    const { port } = first.address() as { port: number };
    try {
      await assert.rejects(
        openListener({
          address: `127.0.0.1:${port}`,
          onRequest: (_req, res) => res.end(),
          listenError: (err) => new Error(`taken: ${(err as NodeJS.ErrnoException).code}`),
        }),
        /^Error: taken: EADDRINUSE$/,
      );
    } finally {
      await new Promise((resolve) => first.close(resolve));
    }
  });
});
