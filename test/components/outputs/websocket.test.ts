// The websocket output against a real `ws` server on 127.0.0.1.
import assert from 'node:assert/strict';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { WebSocketServer } from 'ws';
import { spec } from '../../../src/components/outputs/websocket.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';
import { closedPort, waitFor } from '../../helpers/kit.js';
import { TLS_OFF } from '../../helpers/tls.js';
import { configOf } from '../reference.js';

const tls = TLS_OFF;

async function server(port = 0, onHeaders?: (auth: string | undefined) => void) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port });
  const frames: string[] = [];
  wss.on('connection', (socket, req) => {
    onHeaders?.(req.headers.authorization);
    socket.on('message', (data) => frames.push(String(data)));
  });
  await new Promise((r) => wss.once('listening', r));
  return { wss, frames, port: (wss.address() as AddressInfo).port };
}

function stop(wss: WebSocketServer): Promise<void> {
  for (const c of wss.clients) c.terminate();
  return new Promise((r) => wss.close(() => r()));
}

describe('websocket output', () => {
  it('sends each message as a frame, with basic auth on the handshake', async () => {
    let auth: string | undefined;
    const { wss, frames, port } = await server(0, (a) => {
      auth = a;
    });
    const output = await spec.build(
      configOf(spec, {
        url: `ws://127.0.0.1:${port}/in`,
        tls,
        basic_auth: { enabled: true, username: 'u', password: 'p' },
      }),
      createTestContext({ type: 'websocket' }),
    );
    await output.write([new Message('one'), new Message('two')]);
    await output.write([new Message('three')]);
    await waitFor(() => frames.length === 3 || undefined, { message: 'three frames' });
    assert.deepEqual(frames, ['one', 'two', 'three']);
    assert.equal(auth, `Basic ${Buffer.from('u:p').toString('base64')}`);
    await output.close();
    await stop(wss);
  });

  it('is not connected while the server is absent, naming it, and delivers once it appears', async () => {
    const port = await closedPort();
    const output = await spec.build(
      configOf(spec, { url: `ws://127.0.0.1:${port}/in`, tls }),
      createTestContext({ type: 'websocket' }),
    );
    const error = await waitFor(() => output.statuses()[0]?.error, { message: 'a connection error' });
    assert.equal(output.statuses()[0]?.connected, false);
    assert.match(error, new RegExp(`127\\.0\\.0\\.1:${port}`));
    const late = await server(port);
    await output.write([new Message('finally')]);
    await waitFor(() => late.frames.length === 1 || undefined, { message: 'the frame' });
    assert.deepEqual(late.frames, ['finally']);
    await output.close();
    await stop(late.wss);
  });

  it('reconnects after the server drops the connection, and sends the next batch', async () => {
    const { wss, frames, port } = await server();
    const output = await spec.build(
      configOf(spec, { url: `ws://127.0.0.1:${port}/in`, tls }),
      createTestContext({ type: 'websocket' }),
    );
    await output.write([new Message('a')]);
    await waitFor(() => frames.includes('a') || undefined, { message: 'a before the drop' });
    const dropped = [...wss.clients];
    for (const c of dropped) c.terminate();
    await waitFor(() => dropped.every((c) => !wss.clients.has(c)) || undefined, {
      message: 'the connection dropped',
    });
    await new Promise((r) => setTimeout(r, 50));
    await output.write([new Message('b')]);
    await waitFor(() => frames.includes('b') || undefined, { message: 'b after the reconnect' });
    assert.deepEqual(frames, ['a', 'b']);
    await output.close();
    await stop(wss);
  });

  it('an idle output notices a dropped connection and reconnects without a write', async () => {
    const { wss, port } = await server();
    const output = await spec.build(
      configOf(spec, { url: `ws://127.0.0.1:${port}/in`, tls }),
      createTestContext({ type: 'websocket' }),
    );
    await waitFor(() => output.statuses()[0]?.connected || undefined, { message: 'connected' });
    const first = await waitFor(() => [...wss.clients][0], { message: 'the server sees the client' });
    first.terminate();
    // Nothing is written: only the output noticing the drop by itself can open a new connection.
    await waitFor(
      () => ([...wss.clients].some((c) => c !== first) && output.statuses()[0]?.connected) || undefined,
      { message: 'a new connection, without a write' },
    );
    await output.close();
    await stop(wss);
  });

  it('reconnects after the server restarts on the same port, delivering the batch it retried', async () => {
    const first = await server();
    const output = await spec.build(
      configOf(spec, { url: `ws://127.0.0.1:${first.port}/in`, tls }),
      createTestContext({ type: 'websocket' }),
    );
    await output.write([new Message('before')]);
    await waitFor(() => first.frames.includes('before') || undefined, { message: 'the first frame' });
    // A clean close handshake: once the server sees it finish, the client knows it is closed.
    const closing = [...first.wss.clients].map((c) => new Promise((r) => c.once('close', r)));
    for (const c of first.wss.clients) c.close();
    await Promise.all(closing);
    await stop(first.wss);
    const retried = output.write([new Message('after')]);
    await waitFor(() => output.statuses()[0]?.connected === false || undefined, {
      message: 'the loss noticed',
    });
    const second = await server(first.port);
    await retried;
    await waitFor(() => second.frames.length === 1 || undefined, { message: 'the retried frame' });
    assert.deepEqual(first.frames, ['before']);
    assert.deepEqual(second.frames, ['after']);
    await output.close();
    await stop(second.wss);
  });

  it('close during the handshake aborts it instead of leaving the socket open', async () => {
    // A TCP server that accepts and never answers the upgrade: the client stays in its handshake.
    const sockets: Socket[] = [];
    const closed: Socket[] = [];
    const silent = createServer((s) => {
      sockets.push(s);
      s.on('close', () => closed.push(s));
      s.resume(); // flowing, so the client's FIN is read and 'close' fires
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const { port } = silent.address() as AddressInfo;
    const output = await spec.build(
      configOf(spec, { url: `ws://127.0.0.1:${port}/in`, tls }),
      createTestContext({ type: 'websocket' }),
    );
    await waitFor(() => sockets.length === 1 || undefined, { message: 'the handshake to start' });
    await output.close();
    await waitFor(() => closed.length === 1 || undefined, { message: 'the client to drop the connection' });
    assert.equal(output.statuses()[0]?.connected, false);
    await assert.rejects(output.write([new Message('late')]), /closed/);
    await new Promise((r) => silent.close(r));
  });

  it('fails the build for a jwt key file it cannot read, naming the field', async () => {
    const jwt = { enabled: true, signing_method: 'RS256', private_key_file: 'test/fixtures/no-such-key.pem' };
    await assert.rejects(
      async () =>
        spec.build(configOf(spec, { url: 'ws://x', tls, jwt }), createTestContext({ type: 'websocket' })),
      /jwt\.private_key_file: cannot read test\/fixtures\/no-such-key\.pem \(ENOENT\)/,
    );
  });
});
