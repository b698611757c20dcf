import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { HttpRequester } from '../../../src/components/http/requester.js';
import {
  type HttpClientOutputConfig,
  HttpClientWriter,
  spec,
} from '../../../src/components/outputs/http_client.js';
import { parseFields } from '../../../src/config/spec.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';
import { configOf } from '../reference.js';

interface Seen {
  method: string;
  body: string;
  headers: IncomingMessage['headers'];
}

describe('http_client output', () => {
  let server: Server;
  let base = '';
  const seen: Seen[] = [];
  /** Statuses to answer with, in order; 200 once exhausted. */
  let script: number[] = [];

  before(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', body: Buffer.concat(chunks).toString(), headers: req.headers });
        res.writeHead(script.shift() ?? 200).end('reply');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  async function writer(overrides: Record<string, unknown>) {
    const ctx = createTestContext();
    const raw = configOf(spec, { url: `${base}/in`, retry_period: '10ms', ...overrides });
    const config: HttpClientOutputConfig = parseFields(spec.fields, raw, ctx);
    const requester = await HttpRequester.create(config, ctx, 4);
    return new HttpClientWriter(requester, config);
  }

  it('retries a failing server, then succeeds', async () => {
    seen.length = 0;
    script = [500, 503];
    const w = await writer({ headers: { 'X-Key': 'k1' } });
    await w.write([new Message('payload')]);
    await w.close();
    assert.equal(seen.length, 3);
    assert.deepEqual(
      seen.map((s) => [s.method, s.body, s.headers['x-key']]),
      Array(3).fill(['POST', 'payload', 'k1']),
    );
  });

  it('fails once retries are spent', async () => {
    seen.length = 0;
    script = [500, 500, 500];
    const w = await writer({ retries: 2 });
    await assert.rejects(w.write([new Message('x')]), /HTTP status 500/);
    await w.close();
    assert.equal(seen.length, 3);
  });

  it('treats successful_on statuses as success and drop_on statuses as dropped, without retries', async () => {
    seen.length = 0;
    script = [404, 400];
    const w = await writer({ successful_on: [404], drop_on: [400] });
    await w.write([new Message('a')]);
    await w.write([new Message('b')]);
    await w.close();
    assert.equal(seen.length, 2);
  });

  it('sends a batch as parallel requests, or as one multipart request', async () => {
    seen.length = 0;
    script = [];
    const plain = await writer({});
    await plain.write([new Message('1'), new Message('2')]);
    assert.deepEqual(seen.map((s) => s.body).sort(), ['1', '2']);
    seen.length = 0;
    const multi = await writer({ batch_as_multipart: true });
    await multi.write([new Message('1'), new Message('2')]);
    assert.equal(seen.length, 1);
    assert.match(String(seen[0]?.headers['content-type']), /^multipart\/mixed; boundary=/);
    assert.match(seen[0]?.body ?? '', /\r\n\r\n1\r\n--.*\r\n\r\n2\r\n/s);
    await plain.close();
    await multi.close();
  });

  it('sends basic auth and metadata headers', async () => {
    seen.length = 0;
    const w = await writer({
      basic_auth: { enabled: true, username: 'u', password: 'p' },
      metadata: { include_prefixes: ['trace_'], include_patterns: [] },
    });
    const msg = new Message('m');
    msg.setMeta('trace_id', '42');
    msg.setMeta('other', 'no');
    await w.write([msg]);
    await w.close();
    assert.equal(seen[0]?.headers.authorization, `Basic ${Buffer.from('u:p').toString('base64')}`);
    assert.equal(seen[0]?.headers.trace_id, '42');
    assert.equal(seen[0]?.headers.other, undefined);
  });
});
