// Seeded fuzzing of every endpoint of a real streams-mode server on 127.0.0.1: random methods,
// odd ids and paths, invalid UTF-8, bodies over the limit, deep nesting, YAML alias bombs, malformed
// requests on raw sockets, and slow-loris clients. After each burst the server still answers
// /ping and the streams and resources created before the burst are intact.
// Replay a failure with FUZZ_SEED=<seed>; raise the volume with FUZZ_REQUESTS.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { StreamsService } from '../../src/streams/service.js';
import { H, H_JSON, json, type Reply, send, startService } from '../streams/support.js';
import {
  countFromEnv,
  deepJson,
  int,
  mutate,
  pick,
  prng,
  type Random,
  randomBytes,
  rawRequest,
  tokenSoup,
  yamlAliasBomb,
} from './support.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const REQUESTS = countFromEnv('FUZZ_REQUESTS', 2400);
const BURSTS = 6;
const BODY_LIMIT = 64 * 1024;
const HEADERS_MS = 800;
const REQUEST_MS = 1500;
const KEEP = ['keep_a', 'keep_b'];
const KEEP_RESOURCE = 'keep_cache';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'DERP', 'TRACE'];

function oddId(random: Random): string {
  return pick(random, [
    'fz',
    `fz${int(random, 50)}`,
    '..',
    '.',
    '%2F',
    '%2e%2e',
    'a%2Fb',
    '%00',
    '%ZZ',
    '%',
    'fz%20x',
    '%F0%9F%A6%80',
    '%C3%28',
    'fz;drop',
    'fz\'"',
    'x'.repeat(10 * 1024),
    `fz${'é'.repeat(8)}`.replace(/é/g, '%C3%A9'),
    'fz?chilled=true',
    'fz#frag',
  ]);
}

function randomPath(random: Random): string {
  const id = oddId(random);
  const prefix = random() < 0.15 ? '/nekton' : '';
  const path = pick(random, [
    '/ping',
    '/version',
    '/ready',
    '/endpoints',
    '/metrics',
    '/stats',
    '/streams',
    '/streams/',
    `/streams/${id}`,
    `/streams/${id}/stats`,
    `/streams/${id}/extra`,
    '/resources',
    `/resources/${pick(random, ['cache', 'input', 'output', 'processor', 'rate_limit', 'widget', id])}/${id}`,
    `/${id}/ready`,
    `/../streams/${id}`,
    '//streams',
    `/streams/${id}?timeout=${pick(random, ['0s', 'x', '-1s', '1h'])}`,
    `/streams/${id}?chilled=${pick(random, ['true', 'false', 'TRUE'])}`,
  ]);
  return prefix + path;
}

function randomBody(random: Random): Buffer | string | undefined {
  switch (int(random, 11)) {
    case 0:
      return undefined;
    case 1:
      return randomBytes(random, int(random, 2048));
    case 2:
      return tokenSoup(random, int(random, 200));
    case 3:
      return mutate(random, H_JSON, 1 + int(random, 6));
    case 4:
      return mutate(random, 'input:\n  generate:\n    mapping: root = deleted()\noutput:\n  drop: {}\n', 4);
    case 5:
      return deepJson(1000 + int(random, 20_000), random() < 0.5 ? 'array' : 'object');
    case 6:
      return yamlAliasBomb(6 + int(random, 4));
    case 7:
      return Buffer.alloc(BODY_LIMIT + 1 + int(random, BODY_LIMIT), 0x61);
    case 8:
      return JSON.stringify({ ...H, pipeline: { processors: [{ mapping: tokenSoup(random, 30) }] } });
    case 9:
      return `input:\n  generate:\n    mapping: "${'('.repeat(2000 + int(random, 5000))}"\noutput:\n  drop: {}\n`;
    default:
      return Buffer.concat([Buffer.from('{"input":"'), randomBytes(random, 64), Buffer.from('"}')]);
  }
}

/** Bulk `POST /streams` replaces every stream: fuzz it only with bodies that can never be a mapping. */
function safeBulkBody(random: Random): Buffer | string {
  return pick(random, [
    () => `- ${tokenSoup(random, 20)}`,
    () => deepJson(5000, 'array'),
    () => yamlAliasBomb(8),
    () => Buffer.alloc(BODY_LIMIT + 10, 0x20),
    () => Buffer.concat([Buffer.from('- '), randomBytes(random, 256)]),
  ])();
}

/** Requests that could remove what the burst checks afterwards are steered away from it. */
function touchesKept(method: string, path: string): boolean {
  if (method === 'GET' || method === 'HEAD') return false;
  return KEEP.some((id) => path.includes(id)) || path.includes(KEEP_RESOURCE);
}

function withDeadline(work: Promise<Reply>, ms: number, what: string): Promise<Reply> {
  return Promise.race([
    work,
    new Promise<Reply>((_, reject) =>
      setTimeout(() => reject(new Error(`no answer within ${ms} ms: ${what}`)), ms),
    ),
  ]);
}

async function sendSafely(
  service: StreamsService,
  method: string,
  path: string,
  body?: Buffer | string,
): Promise<Reply | 'closed'> {
  try {
    return await withDeadline(send(service, method, path, body), 15_000, `${method} ${path.slice(0, 80)}`);
  } catch (err) {
    // The server may drop the connection after a 413 or on a parser error; that is an answer.
    if (/ECONNRESET|EPIPE|socket hang up/.test(String(err))) return 'closed';
    throw err;
  }
}

describe('HTTP fuzz (seeded)', () => {
  let service: StreamsService;
  const statuses = new Map<number | 'closed', number>();

  before(async () => {
    service = await startService({
      bodyLimitBytes: BODY_LIMIT,
      httpTimeouts: { headersMs: HEADERS_MS, requestMs: REQUEST_MS, keepAliveMs: 500 },
    });
    for (const id of KEEP) {
      const created = await send(service, 'POST', `/streams/${id}`, H_JSON);
      assert.equal(created.status, 200, created.body);
    }
    const cache = await send(service, 'POST', `/resources/cache/${KEEP_RESOURCE}`, 'memory: {}');
    assert.equal(cache.status, 200, cache.body);
  });

  after(async () => {
    await service.stop();
    if (process.env.SOAK_REPORT) console.log('fuzz status counts', Object.fromEntries(statuses));
  });

  async function assertIntact(context: string): Promise<void> {
    const ping = await send(service, 'GET', '/ping');
    assert.equal(ping.status, 200, context);
    assert.equal(ping.body, 'pong', context);
    for (const id of KEEP) {
      const got = await send(service, 'GET', `/streams/${id}`);
      assert.equal(got.status, 200, `${context}: stream ${id} lost`);
      const detail = json(got) as { active: boolean; config: unknown };
      assert.equal(detail.active, true, `${context}: stream ${id} stopped`);
      assert.deepEqual(detail.config, H, `${context}: stream ${id} changed`);
    }
    const resource = await send(service, 'GET', `/resources/cache/${KEEP_RESOURCE}`);
    assert.equal(resource.status, 200, `${context}: resource lost`);
  }

  it(`answers ${REQUESTS} random requests without a 5xx crash, in ${BURSTS} bursts (seed ${SEED})`, async () => {
    const random = prng(SEED);
    const heapBefore = process.memoryUsage().heapUsed;
    const perBurst = Math.ceil(REQUESTS / BURSTS);
    for (let burst = 0; burst < BURSTS; burst++) {
      const batch: Array<Promise<void>> = [];
      for (let i = 0; i < perBurst; i++) {
        let method = pick(random, METHODS);
        const path = randomPath(random);
        let body = method === 'GET' || method === 'HEAD' ? undefined : randomBody(random);
        if (path === '/streams' && method === 'POST') body = safeBulkBody(random);
        if (touchesKept(method, path)) {
          method = 'GET';
          body = undefined;
        }
        if (path.startsWith('/nekton/streams') && method === 'POST' && !path.includes('/streams/')) {
          body = safeBulkBody(random);
        }
        const oversized = body !== undefined && Buffer.byteLength(body) > BODY_LIMIT;
        const what = `${method} ${path.slice(0, 60)} (${body === undefined ? 0 : Buffer.byteLength(body)} bytes)`;
        batch.push(
          sendSafely(service, method, path, body).then((reply) => {
            const status = reply === 'closed' ? 'closed' : reply.status;
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
            if (reply === 'closed') return;
            assert.ok(reply.status !== 500, `500 for ${what}: ${reply.body.slice(0, 200)}`);
            assert.ok(reply.status < 503 || reply.status === 503, `${reply.status} for ${what}`);
            // A body over the limit on an endpoint that reads bodies is refused with 413.
            if (oversized && reply.status !== 404 && /^\/(nekton\/)?(streams|resources)\//.test(path)) {
              if (['POST', 'PUT', 'PATCH'].includes(method) && reply.status !== 400)
                assert.equal(reply.status, 413, `${what}: ${reply.body.slice(0, 120)}`);
            }
          }),
        );
        // Keep the concurrency modest: two cores are shared with other test files.
        if (batch.length >= 16) await Promise.all(batch.splice(0));
      }
      await Promise.all(batch);
      await assertIntact(`after burst ${burst}`);
    }
    const growthMb = (process.memoryUsage().heapUsed - heapBefore) / 1048576;
    assert.ok(growthMb < 300, `heap grew ${growthMb.toFixed(0)} MB`);
    // Clean up fuzz-created streams so the next test starts from the kept ones only.
    for (const id of Object.keys(json(await send(service, 'GET', '/streams'))))
      if (!KEEP.includes(id)) await send(service, 'DELETE', `/streams/${encodeURIComponent(id)}?timeout=0s`);
  });

  it('rejects a YAML alias bomb quickly with a 400 and bounded memory', async () => {
    const heapBefore = process.memoryUsage().heapUsed;
    for (const path of [
      '/streams/bomb',
      '/streams/bomb?chilled=true',
      '/resources/cache/bomb?chilled=true',
      '/streams?chilled=true',
    ]) {
      const reply = await withDeadline(send(service, 'POST', path, yamlAliasBomb(9)), 5_000, path);
      assert.equal(reply.status, 400, `${path}: ${reply.body}`);
    }
    const patch = await withDeadline(
      send(service, 'PATCH', `/streams/${KEEP[0]}`, yamlAliasBomb(9)),
      5_000,
      'patch',
    );
    assert.equal(patch.status, 400, patch.body);
    const growthMb = (process.memoryUsage().heapUsed - heapBefore) / 1048576;
    assert.ok(growthMb < 100, `heap grew ${growthMb.toFixed(0)} MB on alias bombs`);
    await assertIntact('after alias bombs');
  });

  it('answers deeply nested JSON with 400, never a crash', async () => {
    for (const kind of ['array', 'object'] as const) {
      const body = deepJson(kind === 'array' ? 30_000 : 10_000, kind);
      const reply = await withDeadline(send(service, 'POST', '/streams/deep', body), 10_000, kind);
      assert.equal(reply.status, 400, `${kind}: ${reply.body.slice(0, 200)}`);
    }
    await assertIntact('after deep nesting');
  });

  it('refuses bodies over the limit with 413 on every body-reading endpoint', async () => {
    const big = Buffer.alloc(BODY_LIMIT + 1, 0x61);
    for (const [method, path] of [
      ['POST', '/streams/big'],
      ['PUT', `/streams/${KEEP[0]}`],
      ['PATCH', `/streams/${KEEP[0]}`],
      ['POST', '/streams'],
      ['POST', '/resources/cache/big'],
    ] as const) {
      const reply = await sendSafely(service, method, path, big);
      if (reply === 'closed') continue; // the server may cut the upload short after answering
      assert.equal(reply.status, 413, `${method} ${path}: ${reply.body}`);
    }
    await assertIntact('after oversized bodies');
  });

  it('survives malformed requests on raw sockets', async () => {
    const port = service.http.port as number;
    const random = prng(SEED + 1);
    const cases: Array<Array<Buffer | string>> = [
      ['GARBAGE\r\n\r\n'],
      ['GET /ping HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n'],
      ['GET /ping HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'],
      ['POST /streams/raw HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZZ\r\nxx\r\n'],
      ['GET /ping HTTP/9.9\r\n\r\n'],
      ['GET /ping\r\n\r\n'],
      [`GET /${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`],
      [`GET /ping HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(64 * 1024)}\r\n\r\n`],
      ['GET /str\u00e9ams HTTP/1.1\r\nHost: x\r\n\r\n'],
      [
        Buffer.from([
          0x47, 0x45, 0x54, 0x20, 0x2f, 0xff, 0xfe, 0x20, 0x48, 0x54, 0x54, 0x50, 0x2f, 0x31, 0x2e, 0x31,
          0x0d, 0x0a, 0x0d, 0x0a,
        ]),
      ],
      ['GET /ping HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'],
      ['GET /ping HTTP/1.1\r\nHost: x\r\n\u0000: y\r\n\r\n'],
      ['POST /streams/raw HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\n\xff\xfe\xfd'],
      ['GET /streams/%E0%A4%A HTTP/1.1\r\nHost: x\r\n\r\n'],
      ['GET http://evil.example/ping HTTP/1.1\r\nHost: x\r\n\r\n'],
      ['GET * HTTP/1.1\r\nHost: x\r\n\r\n'],
    ];
    for (let i = 0; i < 40; i++) cases.push([randomBytes(random, 1 + int(random, 512))]);
    for (let i = 0; i < 40; i++)
      cases.push([
        `${pick(random, METHODS)} ${tokenSoup(random, 5)} HTTP/1.1\r\n${tokenSoup(random, 10)}\r\n\r\n`,
      ]);
    for (const chunks of cases) {
      const reply = await rawRequest(port, chunks, 4000);
      assert.ok(
        reply.closed || reply.statusLine.startsWith('HTTP/1.1'),
        `no answer and no close for ${JSON.stringify(String(chunks[0]).slice(0, 60))}`,
      );
      assert.ok(
        !reply.statusLine.includes(' 500 '),
        `500 for ${JSON.stringify(String(chunks[0]).slice(0, 60))}`,
      );
    }
    await assertIntact('after raw malformed requests');
  });

  it('cuts slow-loris clients off (header and body timeouts) while still serving others', async () => {
    const port = service.http.port as number;
    // Headers trickle in one byte at a time and never finish.
    const slowHeaders = new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      const text = 'GET /ping HTTP/1.1\r\nHost: x\r\nX-Slow: ' + 'a'.repeat(1000);
      let i = 0;
      const drip = setInterval(() => {
        if (i < text.length && !socket.destroyed) socket.write(text[i++] as string);
      }, 50);
      socket.on('close', () => {
        clearInterval(drip);
        resolve(true);
      });
      socket.on('error', () => undefined);
      socket.on('data', () => undefined);
    });
    // Headers complete, the body trickles and never reaches its Content-Length.
    const slowBody = new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.on('connect', () =>
        socket.write('POST /streams/slow HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n'),
      );
      const drip = setInterval(() => {
        if (!socket.destroyed) socket.write('a');
      }, 50);
      socket.on('close', () => {
        clearInterval(drip);
        resolve(true);
      });
      socket.on('error', () => undefined);
      socket.on('data', () => undefined);
    });
    // Meanwhile the server keeps answering.
    const ping = await send(service, 'GET', '/ping');
    assert.equal(ping.status, 200);
    const deadline = (ms: number) => new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms));
    // The bound is the timeout plus Node's connection-check interval plus slack, not a measurement.
    assert.equal(
      await Promise.race([slowHeaders, deadline(HEADERS_MS * 2 + 8_000)]),
      true,
      'slow headers kept open',
    );
    assert.equal(
      await Promise.race([slowBody, deadline(REQUEST_MS * 2 + 8_000)]),
      true,
      'slow body kept open',
    );
    await assertIntact('after slow-loris');
  });
});
