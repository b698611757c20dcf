// An `http_server` input that stops while requests wait for the pipeline: every request it
// received but never handed over (or handed to a read the engine abandoned on stop) is answered
// 503 at once, not left to the 408 timer or cut when the server closes.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { HttpServerReader, httpServerInputFields } from '../../src/components/inputs/http_server.js';
import { streamFromYaml } from '../components/brokers/support.js';
import { parsedConfigOf } from '../components/reference.js';
import { createTestContext } from '../helpers/context.js';
import { freePort, waitFor } from '../helpers/kit.js';

// Far beyond the test's own waits: a request answered 408 means shutdown forgot it.
const TIMEOUT = '3s';

async function start() {
  const ctx = createTestContext();
  const config = parsedConfigOf(httpServerInputFields, ctx, { address: '127.0.0.1:0', timeout: TIMEOUT });
  const reader = new HttpServerReader(config, ctx, {
    status: config.sync_response.status,
    headers: [],
    metadataHeader: null,
  });
  await reader.connect();
  const input = ctx.wrapReader(reader);
  return { reader, input, port: reader.boundAddress()?.port as number };
}

/** POSTs with its own connection; resolves with the status, or the socket error's code on a reset. */
function post(port: number, body: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/post', method: 'POST', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    req.end(body);
  });
}

describe('http_server input at shutdown', () => {
  it('answers 503 to requests the pipeline never read', async () => {
    const { reader, input, port } = await start();
    const replies = [post(port, 'a'), post(port, 'b')];
    await waitFor(() => reader.pendingRequests() === 2, { intervalMs: 5 });
    await input.close();
    assert.deepEqual(await Promise.all(replies), [503, 503]);
  });

  it('answers 503 to a request that reached a read abandoned by the stop', async () => {
    const { reader, input, port } = await start();
    const first = post(port, 'first');
    const txn = await input.read();
    assert.ok(txn);
    // The next read waits in the reader; close() makes the engine give up on it, but the reader
    // is only closed once the first message is acked.
    const abandoned = input.read();
    const closing = input.close();
    assert.equal(await abandoned, null);
    const second = post(port, 'second');
    await waitFor(() => reader.pendingRequests() === 2, { intervalMs: 5 });
    await txn.ack(null);
    assert.equal(await first, 200);
    await closing;
    assert.equal(await second, 503);
  });

  it('in a stream stopped with one message in the pipeline: 502 for it, 503 for the unread', async () => {
    const port = await freePort();
    const { stream } = await streamFromYaml(
      `input:\n  http_server: { address: 127.0.0.1:${port}, timeout: ${TIMEOUT} }\n` +
        'pipeline:\n  threads: 1\n  processors:\n    - sleep: { duration: 2s }\n' +
        'output:\n  drop: {}\n',
    );
    const run = stream.run();
    await waitFor(() => stream.isReady(), { intervalMs: 5 });
    // The first request occupies the only pipeline thread; the next two wait in the input.
    const replies = [post(port, 'in the pipeline')];
    await delay(200);
    replies.push(post(port, 'unread 1'), post(port, 'unread 2'));
    await delay(200);
    await stream.stop(500);
    await run;
    const statuses = await Promise.all(replies);
    assert.deepEqual(statuses.sort(), [502, 503, 503]);
  });

  it('stops listening once closed', async () => {
    const { input, port } = await start();
    await input.close();
    const reply = await post(port, 'late');
    assert.equal(reply, 'ECONNREFUSED');
  });
});
