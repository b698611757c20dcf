import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, describe, it } from 'node:test';
import { WebSocket } from 'ws';
import { BatchHandoff } from '../../../src/components/http/handoff.js';
import { HttpServerWriter, httpServerOutputFields } from '../../../src/components/outputs/http_server.js';
import { HttpServer } from '../../../src/http/server.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';
import { waitFor } from '../../helpers/kit.js';
import { send, startService } from '../../streams/support.js';
import { parsedConfigOf } from '../reference.js';
import { buildStream } from './support.js';

async function ownServer(overrides: Record<string, unknown> = {}) {
  const writer = new HttpServerWriter(
    parsedConfigOf(httpServerOutputFields, createTestContext(), { address: '127.0.0.1:0', ...overrides }),
  );
  await writer.connect();
  return { writer, base: `127.0.0.1:${writer.boundAddress()?.port}` };
}

/** Collects websocket messages as text until `count` arrived. */
function wsMessages(url: string, count: number): Promise<{ texts: string[]; ws: WebSocket }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const texts: string[] = [];
    ws.on('message', (data) => {
      texts.push(String(data));
      if (texts.length === count) resolve({ texts, ws });
    });
    ws.on('error', reject);
  });
}

/** Reads a streamed response until `until` matches the text received so far. */
function streamUntil(url: string, until: (text: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => {
        text += c.toString();
        if (until(text)) {
          req.destroy();
          resolve(text);
        }
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('http_server output (own address)', () => {
  it('answers a GET with one message and resolves the write only once it was sent', async () => {
    const { writer, base } = await ownServer();
    let written = false;
    const write = writer.write([new Message('hello')]).then(() => {
      written = true;
    });
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(written, false, 'no client has taken the message yet');
    const res = await fetch(`http://${base}/get`);
    assert.equal(res.status, 200);
    assert.equal(await res.text(), 'hello');
    await write;
    assert.equal(written, true);
    await writer.close();
  });

  it('answers 408 when no message comes in time, 405 for other verbs, and a batch as multipart', async () => {
    const { writer, base } = await ownServer({ timeout: '50ms' });
    assert.equal((await fetch(`http://${base}/get`)).status, 408);
    assert.equal((await fetch(`http://${base}/get`, { method: 'POST' })).status, 405);
    const write = writer.write([new Message('a'), new Message('b')]);
    const res = await fetch(`http://${base}/get`);
    assert.match(res.headers.get('content-type') ?? '', /^multipart\/mixed; boundary=/);
    assert.match(await res.text(), /\r\n\r\na\r\n--.*\r\n\r\nb\r\n/s);
    await write;
    await writer.close();
  });

  it('streams messages in one chunked response and over a websocket', async () => {
    const { writer, base } = await ownServer();
    const streamed = streamUntil(`http://${base}/get/stream`, (t) => t.includes('s2'));
    await writer.write([new Message('s1')]);
    await writer.write([new Message('s2')]);
    assert.equal(await streamed, 's1s2');
    // A write racing the disconnect can land in the dead socket's buffer: wait until it is seen.
    await waitFor(() => writer.activeStreamClients() === 0, { message: 'the stream client to be gone' });

    const ws = wsMessages(`ws://${base}/get/ws`, 3);
    await writer.write([new Message('w1'), new Message('w2')]);
    await writer.write([new Message('w3')]);
    const { texts, ws: client } = await ws;
    assert.deepEqual(texts, ['w1', 'w2', 'w3']);
    client.close();
    await writer.close();
  });

  it('nacks writes still waiting for a client when it closes', async () => {
    const { writer, base } = await ownServer();
    const write = writer.write([new Message('kept')]);
    assert.equal(await (await fetch(`http://${base}/get`)).text(), 'kept');
    await write;
    const pending = writer.write([new Message('never taken')]);
    await writer.close();
    await assert.rejects(pending, /closed before a client took the message/);
  });

  it('fails to connect on a taken address, naming it', async () => {
    const { writer, base } = await ownServer();
    const clash = new HttpServerWriter(
      parsedConfigOf(httpServerOutputFields, createTestContext(), { address: base }),
    );
    await assert.rejects(
      clash.connect(),
      new RegExp(`listen on ${base.replace(/\./g, '\\.')}: .*EADDRINUSE`),
    );
    await writer.close();
  });
});

describe('batch handoff', () => {
  it('hands a batch a client failed to send to the next client, and resolves the write only then', async () => {
    const handoff = new BatchHandoff();
    let settled = false;
    const write = handoff.offer([new Message('x')]).then(() => {
      settled = true;
    });
    const first = await handoff.take(new AbortController().signal);
    first?.giveBack();
    await new Promise((r) => setImmediate(r));
    assert.equal(settled, false);
    const second = await handoff.take(new AbortController().signal);
    assert.equal(second?.batch[0]?.text(), 'x');
    second?.delivered();
    await write;
    assert.equal(settled, true);
  });

  it('stops waiting when the client goes away, leaving the batch for the next one', async () => {
    const handoff = new BatchHandoff();
    const gone = new AbortController();
    const waiting = handoff.take(gone.signal);
    gone.abort();
    assert.equal(await waiting, null);
    const write = handoff.offer([new Message('y')]);
    const next = await handoff.take(new AbortController().signal);
    assert.equal(next?.batch[0]?.text(), 'y');
    next?.delivered();
    await write;
  });
});

describe('http_server output (shared server)', () => {
  const http = new HttpServer({ config: { address: '127.0.0.1:0' } });
  after(() => http.close());

  it('serves GET and websocket clients from a running stream and acks every message', async () => {
    const stream = await buildStream(
      `
input:
  generate:
    count: 4
    interval: ''
    mapping: 'root = "m" + counter().string()'
output:
  http_server: {}
`,
      http,
    );
    await http.listen();
    const done = stream.run();
    const base = `127.0.0.1:${http.port}`;
    const first = await (await fetch(`http://${base}/get`)).text();
    const second = await (await fetch(`http://${base}/get`)).text();
    const { texts, ws } = await wsMessages(`ws://${base}/get/ws`, 2);
    assert.deepEqual([first, second, ...texts], ['m1', 'm2', 'm3', 'm4']);
    await done; // the input ended and every message was acknowledged
    ws.close();
    await stream.stop(1000);
  });
});

describe('http_server output (streams mode)', () => {
  it('serves its endpoints under /<stream id>', async () => {
    const svc = await startService();
    try {
      const config = {
        input: { generate: { count: 2, interval: '', mapping: 'root = "from-foo"' } },
        output: { http_server: {} },
      };
      assert.equal((await send(svc, 'POST', '/streams/foo', JSON.stringify(config))).status, 200);
      const got = await waitFor(
        async () => {
          const r = await send(svc, 'GET', '/foo/get');
          return r.status === 200 ? r.body : '';
        },
        { message: 'a message at /foo/get' },
      );
      assert.equal(got, 'from-foo');
      assert.equal((await send(svc, 'GET', '/get')).status, 404);
      const { texts, ws } = await wsMessages(`ws://127.0.0.1:${svc.http.port}/foo/get/ws`, 1);
      assert.deepEqual(texts, ['from-foo']);
      ws.close();
    } finally {
      await svc.stop();
    }
  });
});
