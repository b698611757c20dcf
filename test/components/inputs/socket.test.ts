// The `socket` input and output against real local servers: open message, reconnection after the
// server hangs up, delimiters, udp datagrams and a server that resets.
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { createServer, type Server, type Socket } from 'node:net';
import { after, describe, it } from 'node:test';
import { registry } from '../../../src/components/registry.js';
import { schemaProvider } from '../../../src/config/schema.js';
import { toServiceConfig } from '../../../src/config/service_config.js';
import { buildLineIndex, parseYaml, yamlToValue } from '../../../src/config/yaml_document.js';
import type { Input, Output } from '../../../src/engine/component.js';
import { Message } from '../../../src/message/message.js';
import { createTestEnv } from '../../helpers/context.js';
import { freePort, waitFor } from '../../helpers/kit.js';
import { inputOf, lintYaml, readN, texts } from './io_support.js';

const cleanups: Array<() => Promise<void> | void> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** A TCP server that runs `onClient` for each connection; what clients send is collected. */
async function tcpServer(onClient: (socket: Socket) => void): Promise<{ port: number; server: Server }> {
  const server = createServer((socket) => {
    socket.on('error', () => undefined);
    onClient(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const sockets = new Set<Socket>();
  server.on('connection', (s) => sockets.add(s));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  );
  return { port: (server.address() as { port: number }).port, server };
}

async function socketInput(yaml: string): Promise<Input> {
  const input = await inputOf(yaml);
  cleanups.push(() => input.close());
  return input;
}

async function socketOutput(yaml: string): Promise<Output> {
  const full = `input:\n  stdin: {}\noutput:\n${yaml.replace(/^/gm, '  ')}\n`;
  const lints = lintYaml(full);
  assert.deepEqual(lints, []);
  const parsed = parseYaml(full, 'test.yaml');
  const config = toServiceConfig(yamlToValue(parsed), {
    provider: schemaProvider(registry),
    lines: buildLineIndex(parsed),
  });
  const output = await createTestEnv().builder.buildOutput(config.stream!.output);
  cleanups.push(() => output.close());
  return output;
}

async function readAcked(input: Input, n: number): Promise<string[]> {
  const txns = await readN(input, n);
  for (const t of txns) await t.ack(null);
  return texts(txns);
}

describe('socket input', () => {
  it('sends the open message, reads lines, and reconnects when the server hangs up', async () => {
    const heard: string[] = [];
    let connections = 0;
    const { port } = await tcpServer((socket) => {
      connections++;
      const n = connections;
      socket.once('data', (d) => {
        heard.push(d.toString());
        socket.end(`hello ${n}\nbye ${n}`);
      });
    });
    const input = await socketInput(
      `socket:\n  network: tcp\n  address: 127.0.0.1:${port}\n  open_message_mapping: 'root = "LOGIN\\n"'\n`,
    );
    assert.deepEqual(await readAcked(input, 4), ['hello 1', 'bye 1', 'hello 2', 'bye 2']);
    assert.deepEqual(heard.slice(0, 2), ['LOGIN\n', 'LOGIN\n']);
  });

  it('reads on after the server drops the connection mid-line, and reconnects', async () => {
    let connections = 0;
    const { port } = await tcpServer((socket) => {
      connections++;
      if (connections === 1)
        socket.write('kept\nlost-half', () => setImmediate(() => socket.resetAndDestroy()));
      else socket.end('second\n');
    });
    const input = await socketInput(`socket:\n  network: tcp\n  address: 127.0.0.1:${port}\n`);
    const seen: string[] = [];
    while (!seen.includes('second')) seen.push(...(await readAcked(input, 1)));
    assert.equal(seen[0], 'kept');
    assert.ok(connections >= 2);
  });

  it('lints a tcp address without a port', () => {
    assert.deepEqual(
      lintYaml('input:\n  socket:\n    network: tcp\n    address: localhost\noutput:\n  drop: {}\n'),
      ['address localhost: missing port in address'],
    );
  });
});

describe('socket output', () => {
  it('writes each message with the codec delimiter', async () => {
    let received = '';
    const done = new Promise<void>((resolve) => {
      void tcpServer((socket) => {
        socket.on('data', (d) => {
          received += d.toString();
          if (received.endsWith('c|')) resolve();
        });
      }).then(({ port }) => portReady(port));
    });
    let portReady: (port: number) => void = () => undefined;
    const port = await new Promise<number>((resolve) => (portReady = resolve));
    const output = await socketOutput(
      `socket:\n  network: tcp\n  address: 127.0.0.1:${port}\n  codec: 'delim:|'\n`,
    );
    await output.write([new Message('a'), new Message('b')]);
    await output.write([new Message('c')]);
    await done;
    assert.equal(received, 'a|b|c|');
  });

  it('reconnects after the server drops the connection and writes again', async () => {
    const received: string[][] = [];
    const { port } = await tcpServer((socket) => {
      const mine: string[] = [];
      received.push(mine);
      socket.on('data', (d) => {
        mine.push(d.toString());
        socket.destroy();
      });
    });
    const output = await socketOutput(`socket:\n  network: tcp\n  address: 127.0.0.1:${port}\n`);
    await output.write([new Message('first')]);
    let n = 0;
    await waitFor(async () => {
      await output.write([new Message(`again ${n++}`)]).catch(() => undefined);
      return (received[1]?.length ?? 0) > 0;
    });
    assert.match(received[0]!.join(''), /^first\n/);
    assert.match(received[1]!.join(''), /^again \d+\n/);
  });

  it('sends one datagram per message over udp', async () => {
    const port = await freePort();
    const server = createSocket('udp4');
    const got: string[] = [];
    server.on('message', (m) => got.push(m.toString()));
    await new Promise<void>((resolve) => server.bind(port, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const output = await socketOutput(`socket:\n  network: udp\n  address: 127.0.0.1:${port}\n`);
    await output.write([new Message('x'), new Message('y')]);
    await waitFor(() => got.length >= 2);
    assert.deepEqual(got, ['x\n', 'y\n']);
  });

  it('holds a write while nothing listens and delivers it once a server comes up', async () => {
    const port = await freePort();
    const output = await socketOutput(`socket:\n  network: tcp\n  address: 127.0.0.1:${port}\n`);
    const statuses = () => output.statuses().map((s) => s.connected);
    const write = output.write([new Message('patience')]);
    await waitFor(() => statuses().includes(false));
    assert.deepEqual(statuses(), [false]);
    let received = '';
    const server = createServer((socket) => socket.on('data', (d) => (received += d.toString())));
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    await write;
    await waitFor(() => received === 'patience\n');
    await output.close();
  });
});
