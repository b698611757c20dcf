// The websocket output against a real `ws` server on 127.0.0.1.
import assert from 'node:assert/strict';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { WebSocketServer } from 'ws';
import { spec } from '../../../src/components/outputs/websocket.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';
import { TLS_OFF } from '../../helpers/tls.js';
import { closedPort, eventually } from '../http_connectors/support.js';
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
    await eventually(() => frames.length === 3 || undefined, 'three frames');
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
    const error = await eventually(() => output.statuses()[0]?.error, 'a connection error');
    assert.equal(output.statuses()[0]?.connected, false);
    assert.match(error, new RegExp(`127\\.0\\.0\\.1:${port}`));
    const late = await server(port);
    await output.write([new Message('finally')]);
    await eventually(() => late.frames.length === 1 || undefined, 'the frame');
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
    await eventually(() => frames.includes('a') || undefined, 'a before the drop');
    const dropped = [...wss.clients];
    for (const c of dropped) c.terminate();
    await eventually(() => dropped.every((c) => !wss.clients.has(c)) || undefined, 'the connection dropped');
    await new Promise((r) => setTimeout(r, 50));
    await output.write([new Message('b')]);
    await eventually(() => frames.includes('b') || undefined, 'b after the reconnect');
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
    await eventually(() => output.statuses()[0]?.connected || undefined, 'connected');
    const first = await eventually(() => [...wss.clients][0], 'the server sees the client');
    first.terminate();
    // Nothing is written: only the output noticing the drop by itself can open a new connection.
    await eventually(
      () => ([...wss.clients].some((c) => c !== first) && output.statuses()[0]?.connected) || undefined,
      'a new connection, without a write',
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
    await eventually(() => first.frames.includes('before') || undefined, 'the first frame');
    // A clean close handshake: once the server sees it finish, the client knows it is closed.
    const closing = [...first.wss.clients].map((c) => new Promise((r) => c.once('close', r)));
    for (const c of first.wss.clients) c.close();
    await Promise.all(closing);
    await stop(first.wss);
    const retried = output.write([new Message('after')]);
    await eventually(() => output.statuses()[0]?.connected === false || undefined, 'the loss noticed');
    const second = await server(first.port);
    await retried;
    await eventually(() => second.frames.length === 1 || undefined, 'the retried frame');
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
    await eventually(() => sockets.length === 1 || undefined, 'the handshake to start');
    await output.close();
    await eventually(() => closed.length === 1 || undefined, 'the client to drop the connection');
    assert.equal(output.statuses()[0]?.connected, false);
    await assert.rejects(output.write([new Message('late')]), /closed/);
    await new Promise((r) => silent.close(r));
  });

  it('refuses what it cannot do at build time', () => {
    for (const [extra, reason] of [
      [{ jwt: { enabled: true } }, /jwt is not supported/],
      [{ oauth: { enabled: true } }, /oauth is not supported/],
      [{ proxy_url: 'http://proxy:3128' }, /proxy_url is not supported/],
    ] as const)
      assert.throws(
        () =>
          spec.build(
            configOf(spec, { url: 'ws://x', tls, ...extra }),
            createTestContext({ type: 'websocket' }),
          ),
        reason,
      );
  });
});
