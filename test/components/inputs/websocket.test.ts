// The `websocket` input against a real ws server: open message, frames, basic auth, reconnection.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { WebSocketServer } from 'ws';
import type { Input } from '../../../src/engine/component.js';
import { inputOf, lintYaml, readN, texts } from './io_support.js';

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function wsServer(): Promise<{ server: WebSocketServer; port: number }> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const c of server.clients) c.terminate();
        server.close(() => resolve());
      }),
  );
  return { server, port: (server.address() as { port: number }).port };
}

async function wsInput(yaml: string): Promise<Input> {
  const input = await inputOf(yaml);
  cleanups.push(() => input.close());
  return input;
}

async function readAcked(input: Input, n: number): Promise<string[]> {
  const txns = await readN(input, n);
  for (const t of txns) await t.ack(null);
  return texts(txns);
}

describe('websocket input', () => {
  it('sends the open message as text, then reads each frame as a message', async () => {
    const { server, port } = await wsServer();
    const opened: Array<{ text: string; binary: boolean; auth: string | undefined }> = [];
    server.on('connection', (ws, req) => {
      ws.once('message', (data, binary) => {
        opened.push({ text: data.toString(), binary, auth: req.headers.authorization });
        ws.send('one');
        ws.send(Buffer.from('two'));
      });
    });
    const input = await wsInput(
      `websocket:\n  url: ws://127.0.0.1:${port}/feed\n  open_message: hello\n  open_message_type: text\n  basic_auth:\n    enabled: true\n    username: u\n    password: p\n`,
    );
    assert.deepEqual(await readAcked(input, 2), ['one', 'two']);
    assert.deepEqual(opened, [
      { text: 'hello', binary: false, auth: `Basic ${Buffer.from('u:p').toString('base64')}` },
    ]);
  });

  it('delivers the frames received before the server closed, then reconnects', async () => {
    const { server, port } = await wsServer();
    let connections = 0;
    server.on('connection', (ws) => {
      connections++;
      ws.send(`frame ${connections}`, () => ws.close(1000, 'bye'));
    });
    const input = await wsInput(`websocket:\n  url: ws://127.0.0.1:${port}\n`);
    assert.deepEqual(await readAcked(input, 2), ['frame 1', 'frame 2']);
  });

  it('lints oauth and an http proxy, refuses a jwt without signing method and a socks proxy', () => {
    assert.deepEqual(
      lintYaml(
        'input:\n  websocket:\n    url: ws://localhost:1\n    oauth:\n      enabled: true\n    proxy_url: http://proxy:3128\noutput:\n  drop: {}\n',
      ),
      [],
    );
    const lints = lintYaml(
      'input:\n  websocket:\n    url: ws://localhost:1\n    jwt:\n      enabled: true\n      private_key_file: k.pem\n    proxy_url: socks5://proxy:1080\noutput:\n  drop: {}\n',
    );
    assert.deepEqual(lints, [
      'jwt.signing_method: "" is not one of RS256, RS384, RS512, EdDSA',
      'proxy_url: only http:// and https:// proxies are supported, not socks5://',
    ]);
  });
});
