import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import type { Message } from '../../../src/message/message.js';
import { closedPort, waitFor } from '../../helpers/kit.js';
import { buildInput, startServer, stopServer } from './support.js';

interface Seen {
  method: string;
  url: string;
  body: string;
  headers: IncomingMessage['headers'];
}

/** A server that records every request and answers with `reply(n)` for the n-th one (0-based). */
async function recordingServer(reply: (n: number, res: ServerResponse) => void) {
  const seen: Seen[] = [];
  const { server, base } = await startServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        body: Buffer.concat(chunks).toString(),
        headers: req.headers,
      });
      reply(seen.length - 1, res);
    });
  });
  return { server, base, seen };
}

describe('http_client input (polling)', () => {
  it('sends the interpolated request and turns each response into a message with metadata', async () => {
    const { server, base, seen } = await recordingServer((n, res) => {
      res.writeHead(200, { 'X-Seq': String(n), 'X-Other': 'no' }).end(`reply ${n}`);
    });
    const { input } = await buildInput(`
input:
  http_client:
    url: '${base}/items?page=\${! 1 + 1 }'
    verb: POST
    headers:
      X-Token: 'abc-\${! "def" }'
    payload: '{"q":"\${! "x".uppercase() }"}'
    basic_auth: { enabled: true, username: u, password: p }
    extract_headers:
      include_prefixes: [ x-seq ]
output:
  drop: {}
`);
    const first = await input.read();
    const second = await input.read();
    assert.ok(first && second);
    const msg = first.batch[0] as Message;
    assert.equal(msg.text(), 'reply 0');
    assert.equal(msg.getMeta('http_status_code'), 200);
    assert.equal(msg.getMeta('x-seq'), '0');
    assert.equal(msg.getMeta('x-other'), undefined, 'only extract_headers are copied');
    assert.equal((second.batch[0] as Message).text(), 'reply 1');
    await first.ack(null);
    await second.ack(null);
    await input.close();
    const req = seen[0] as Seen;
    assert.equal(req.method, 'POST');
    assert.equal(req.url, '/items?page=2');
    assert.equal(req.body, '{"q":"X"}');
    assert.equal(req.headers['x-token'], 'abc-def');
    assert.equal(req.headers.authorization, `Basic ${Buffer.from('u:p').toString('base64')}`);
    await stopServer(server);
  });

  it('retries failures, skips drop_on statuses and empty bodies, and splits multipart replies', async () => {
    const { server, base, seen } = await recordingServer((n, res) => {
      if (n === 0) res.writeHead(500).end('boom');
      else if (n === 1) res.writeHead(200).end('first');
      else if (n === 2) res.writeHead(409).end('dropped');
      else if (n === 3) res.writeHead(200).end();
      else if (n === 4) {
        res.writeHead(200, { 'Content-Type': 'multipart/mixed; boundary=XX' });
        res.end('--XX\r\nContent-Type: text/plain\r\n\r\npart a\r\n--XX\r\n\r\npart b\r\n--XX--\r\n');
      } else res.writeHead(200).end(`later ${n}`);
    });
    const { input } = await buildInput(`
input:
  http_client:
    url: ${base}/poll
    retry_period: 10ms
    drop_on: [ 409 ]
output:
  drop: {}
`);
    const texts: string[][] = [];
    for (let i = 0; i < 2; i++) {
      const txn = await input.read();
      assert.ok(txn);
      texts.push(txn.batch.map((m) => m.text()));
      await txn.ack(null);
    }
    await input.close();
    assert.deepEqual(texts, [['first'], ['part a', 'part b']]);
    assert.equal(seen.length >= 5, true);
    await stopServer(server);
  });

  it('reports an unreachable server as not connected, naming the address, and recovers', async () => {
    const port = await closedPort();
    const { input } = await buildInput(`
input:
  http_client:
    url: http://127.0.0.1:${port}/x
    retries: 0
    timeout: 1s
output:
  drop: {}
`);
    const reading = input.read();
    const status = await waitFor(() => input.statuses()[0]?.error, { message: 'a connection error' });
    assert.equal(input.statuses()[0]?.connected, false);
    assert.match(status, new RegExp(`127\\.0\\.0\\.1:${port}`));
    assert.match(status, /ECONNREFUSED/);
    // The server appears: the engine's reconnect picks it up.
    const late = createServer((_req, res) => res.end('finally'));
    await new Promise<void>((r) => late.listen(port, '127.0.0.1', r));
    const txn = await reading;
    assert.ok(txn);
    assert.equal((txn.batch[0] as Message).text(), 'finally');
    assert.equal(input.statuses()[0]?.connected, true);
    await txn.ack(null);
    await input.close();
    await stopServer(late);
  });
});

describe('http_client input (stream)', () => {
  it('splits one streamed response with the scanner and ends without reconnect', async () => {
    const { server, base, seen } = await recordingServer((_n, res) => {
      res.writeHead(200, { 'X-Stream': 'yes' });
      res.write('one\ntwo\n');
      setTimeout(() => res.end('three\n'), 30);
    });
    const { input } = await buildInput(`
input:
  http_client:
    url: ${base}/events
    extract_headers:
      include_patterns: [ '^x-stream$' ]
    stream:
      enabled: true
      reconnect: false
output:
  drop: {}
`);
    const got: string[] = [];
    for (;;) {
      const txn = await input.read();
      if (!txn) break;
      const msg = txn.batch[0] as Message;
      got.push(msg.text());
      assert.equal(msg.getMeta('x-stream'), 'yes');
      assert.equal(msg.getMeta('http_status_code'), 200);
      await txn.ack(null);
    }
    assert.deepEqual(got, ['one', 'two', 'three']);
    assert.equal(seen.length, 1);
    await input.close();
    await stopServer(server);
  });

  it('opens a new request when the response ends, with reconnect', async () => {
    const { server, base, seen } = await recordingServer((n, res) => {
      res.writeHead(200).end(`r${n}-a\nr${n}-b\n`);
    });
    const { input } = await buildInput(`
input:
  http_client:
    url: ${base}/events
    stream:
      enabled: true
output:
  drop: {}
`);
    const got: string[] = [];
    while (got.length < 4) {
      const txn = await input.read();
      assert.ok(txn);
      got.push(...txn.batch.map((m) => m.text()));
      await txn.ack(null);
    }
    await input.close();
    assert.deepEqual(got, ['r0-a', 'r0-b', 'r1-a', 'r1-b']);
    assert.equal(seen.length >= 2, true);
    await stopServer(server);
  });

  it('fails the connection on an error status', async () => {
    const { server, base } = await recordingServer((_n, res) => res.writeHead(503).end('down'));
    const { input } = await buildInput(`
input:
  http_client:
    url: ${base}/events
    stream: { enabled: true }
output:
  drop: {}
`);
    void input.read();
    const error = await waitFor(() => input.statuses()[0]?.error, { message: 'a connection error' });
    assert.match(error, /HTTP status 503/);
    assert.match(error, new RegExp(base.replace(/\./g, '\\.')));
    await input.close();
    await stopServer(server);
  });
});
