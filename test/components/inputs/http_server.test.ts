import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, it } from 'node:test';
import { HttpServerReader, httpServerInputFields, spec } from '../../../src/components/inputs/http_server.js';
import { responseStoreOf } from '../../../src/components/sync_response_store.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';
import { waitFor } from '../../helpers/kit.js';
import { configOf, parsedConfigOf } from '../reference.js';

async function startReader(overrides: Record<string, unknown> = {}) {
  const ctx = createTestContext();
  const config = parsedConfigOf(httpServerInputFields, ctx, { address: '127.0.0.1:0', ...overrides });
  const reader = new HttpServerReader(config, ctx, {
    status: config.sync_response.status,
    headers: Object.entries(config.sync_response.headers),
    metadataHeader: null,
  });
  await reader.connect();
  const url = `http://127.0.0.1:${reader.boundAddress()?.port}`;
  return { reader, url };
}

describe('http_server input', () => {
  it('answers only after the ack, with metadata from the request', async () => {
    const { reader, url } = await startReader();
    let answered = false;
    const response = fetch(`${url}/post?x=1`, {
      method: 'POST',
      body: 'hi',
      headers: { 'x-trace': 'abc' },
    }).then((r) => {
      answered = true;
      return r;
    });
    const txn = await reader.read();
    assert.ok(txn);
    const msg = txn.batch[0] as Message;
    assert.equal(msg.text(), 'hi');
    assert.equal(msg.getMeta('http_server_verb'), 'POST');
    assert.equal(msg.getMeta('http_server_request_path'), '/post');
    assert.equal(msg.getMeta('X-Trace'), 'abc');
    assert.equal(msg.getMeta('x'), '1');
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(answered, false, 'no response before the ack');
    await txn.ack(null);
    assert.equal((await response).status, 200);
    await reader.close();
  });

  it('returns 502 with the error on a nack and 405 for other verbs', async () => {
    const { reader, url } = await startReader();
    const response = fetch(`${url}/post`, { method: 'POST', body: 'x' });
    const txn = await reader.read();
    await txn?.ack(new Error('output down'));
    const res = await response;
    assert.equal(res.status, 502);
    assert.match(await res.text(), /output down/);
    assert.equal((await fetch(`${url}/post`, { method: 'PUT', body: 'x' })).status, 405);
    await reader.close();
  });

  it('returns the sync response left in the store, and 408 after the timeout', async () => {
    const { reader, url } = await startReader({ timeout: '100ms' });
    const response = fetch(`${url}/post`, { method: 'POST', body: 'abc' });
    const txn = await reader.read();
    const msg = txn?.batch[0] as Message;
    responseStoreOf(msg)?.add([new Message(msg.text().toUpperCase())]);
    await txn?.ack(null);
    assert.equal(await (await response).text(), 'ABC');

    const slow = fetch(`${url}/post`, { method: 'POST', body: 'late' });
    const txn2 = await reader.read();
    assert.equal((await slow).status, 408);
    await txn2?.ack(null); // a late ack is harmless
    await reader.close();
  });

  it('answers with a Content-Length, never a chunked body', async () => {
    const { reader, url } = await startReader();
    const plain = fetch(`${url}/post`, { method: 'POST', body: 'a' });
    await (await reader.read())?.ack(null);
    const ok = await plain;
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('content-length'), '0');
    assert.equal(ok.headers.get('transfer-encoding'), null);

    const synced = fetch(`${url}/post`, { method: 'POST', body: 'abc' });
    const txn = await reader.read();
    responseStoreOf(txn?.batch[0] as Message)?.add([new Message('ABCD')]);
    await txn?.ack(null);
    const sync = await synced;
    assert.equal(sync.headers.get('content-length'), '4');
    assert.equal(await sync.text(), 'ABCD');

    const failed = fetch(`${url}/post`, { method: 'POST', body: 'x' });
    await (await reader.read())?.ack(new Error('down'));
    const nack = await failed;
    assert.equal(nack.status, 502);
    assert.equal(nack.headers.get('content-length'), String('down\n'.length));
    assert.equal(nack.headers.get('transfer-encoding'), null);
    await reader.close();
  });

  it('settles the ack of a client that went away, unbound as the engine calls it', async () => {
    const { reader, url } = await startReader();
    const port = reader.boundAddress()?.port;
    const client = request({ host: '127.0.0.1', port, path: '/post', method: 'POST', agent: false });
    const closed = new Promise((resolve) => client.on('error', () => undefined).on('close', resolve));
    client.end('bye');
    const txn = await reader.read();
    assert.ok(txn);
    client.destroy();
    await closed;
    assert.equal(reader.pendingRequests(), 1);
    const { ack } = txn;
    await ack(null);
    await ack(null); // a second settle changes nothing
    assert.equal(reader.pendingRequests(), 0);
    // The server carries on with the next client.
    const next = fetch(`${url}/post`, { method: 'POST', body: 'next' });
    await (await reader.read())?.ack(null);
    assert.equal((await next).status, 200);
    await reader.close();
  });

  it('reads requests that arrived together as one group, answering each with its own outcome', async () => {
    const { reader, url } = await startReader();
    const post = (body: string) =>
      fetch(`${url}/post`, { method: 'POST', body }).then(
        async (r) => `${body}:${r.status}:${await r.text()}`,
      );
    const replies = Promise.all(['a', 'b', 'c'].map(post));
    await waitFor(() => reader.pendingRequests() >= 3, { message: 'three pending requests', intervalMs: 5 });
    const group = reader.readBufferedGroup(10);
    assert.ok(group);
    assert.equal(group.batches.length, 3);
    assert.equal(reader.readBufferedGroup(10), undefined, 'a request was handed out twice');
    const byBody = new Map(group.batches.map((b) => [(b[0] as Message).text(), b]));
    responseStoreOf(byBody.get('c')![0] as Message)?.add([new Message('C!')]);
    await group.ack(new Error('down'), [byBody.get('b')!]);
    await group.ack(null, [byBody.get('a')!, byBody.get('c')!]);
    await group.ack(null, [byBody.get('b')!]); // settled already: changes nothing
    assert.deepEqual(await replies, ['a:200:', 'b:502:down\n', 'c:200:C!']);
    assert.equal(reader.pendingRequests(), 0);
    await reader.close();
  });

  it('forgets a request whose client leaves before the body is complete', async () => {
    const { reader, url } = await startReader();
    const port = reader.boundAddress()?.port;
    const client = request({
      host: '127.0.0.1',
      port,
      path: '/post',
      method: 'POST',
      agent: false,
      headers: { 'content-length': '100' },
    });
    const closed = new Promise((resolve) => client.on('error', () => undefined).on('close', resolve));
    client.write('only part of it');
    await new Promise((r) => setTimeout(r, 20));
    client.destroy();
    await closed;
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(reader.pendingRequests(), 0, 'a broken-off request was queued');
    const next = fetch(`${url}/post`, { method: 'POST', body: 'next' });
    const txn = await reader.read();
    assert.ok(txn);
    assert.equal((txn.batch[0] as Message).text(), 'next');
    await txn.ack(null);
    assert.equal((await next).status, 200);
    await reader.close();
  });

  it('reads a body that arrives in several chunks whole', async () => {
    const { reader } = await startReader();
    const port = reader.boundAddress()?.port;
    const status = new Promise<number>((resolve) => {
      const client = request(
        { host: '127.0.0.1', port, path: '/post', method: 'POST', agent: false },
        (res) => resolve(res.statusCode ?? 0),
      );
      client.write('one,');
      setTimeout(() => client.write('two,'), 10);
      setTimeout(() => client.end('three'), 20);
    });
    const txn = await reader.read();
    assert.ok(txn);
    assert.equal((txn.batch[0] as Message).text(), 'one,two,three');
    await txn.ack(null);
    assert.equal(await status, 200);
    await reader.close();
  });

  it('reads a body larger than one socket read whole', async () => {
    const { reader, url } = await startReader();
    const big = 'x'.repeat(300_000);
    const response = fetch(`${url}/post`, { method: 'POST', body: big });
    const txn = await reader.read();
    assert.ok(txn);
    assert.equal((txn.batch[0] as Message).text(), big);
    await txn.ack(null);
    assert.equal((await response).status, 200);
    const empty = fetch(`${url}/post`, { method: 'POST' });
    const none = await reader.read();
    assert.ok(none);
    assert.equal((none.batch[0] as Message).byteSize(), 0);
    await none.ack(null);
    assert.equal((await empty).status, 200);
    await reader.close();
  });

  it('registers on the shared server when no address is given', async () => {
    const endpoints: string[] = [];
    const ctx = createTestContext({}, { endpoints: { register: (path) => endpoints.push(path) } });
    const input = await spec.build(configOf(spec, {}), ctx);
    assert.deepEqual(endpoints, ['/post']);
    await input.close();
  });
});
