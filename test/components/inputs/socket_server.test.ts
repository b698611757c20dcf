// The `socket_server` input over real sockets: tcp, unix, udp and tls; clients that reset, send
// garbage or more than is read; the bound address in a cache.
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { mkdtempSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { connect as tlsConnect } from 'node:tls';
import { pino } from 'pino';
import { SocketServerReader } from '../../../src/components/inputs/socket_server_reader.js';
import { splitLines } from '../../../src/components/scanners/lines.js';
import type { Cache, Input } from '../../../src/engine/component.js';
import { ResourceManager } from '../../../src/engine/resources.js';
import { freePort, waitFor } from '../../helpers/kit.js';
import { inputOf, lintYaml, readN, texts } from './io_support.js';

const open: Input[] = [];
after(async () => {
  await Promise.all(open.map((i) => i.close()));
});

async function server(yaml: string, resources?: ResourceManager): Promise<Input> {
  const input = await inputOf(yaml, { resources });
  open.push(input);
  return input;
}

function tcpClient(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Connects once the listener is up (the engine connects the input in the background). */
async function clientOf(port: number): Promise<Socket> {
  return waitFor(() => tcpClient(port).catch(() => undefined));
}

async function readTexts(input: Input, n: number): Promise<string[]> {
  const txns = await readN(input, n);
  for (const t of txns) await t.ack(null);
  return texts(txns);
}

class MapCache implements Cache {
  readonly values = new Map<string, Uint8Array>();
  async get(key: string) {
    return this.values.get(key);
  }
  async set(key: string, value: Uint8Array) {
    this.values.set(key, value);
  }
  async add(key: string, value: Uint8Array) {
    if (this.values.has(key)) return false;
    this.values.set(key, value);
    return true;
  }
  async delete(key: string) {
    this.values.delete(key);
  }
  async close() {}
}

describe('socket_server input', () => {
  it('reads lines from several tcp clients; a clean close delivers the last unterminated line', async () => {
    const port = await freePort();
    const input = await server(`socket_server:\n  network: tcp\n  address: 127.0.0.1:${port}\n`);
    // The engine opens the listener on the first read.
    const got = readTexts(input, 3);
    const a = await clientOf(port);
    a.end('one\ntwo\nthree');
    assert.deepEqual(await got, ['one', 'two', 'three']);
    const b = await tcpClient(port);
    b.end('four\n');
    assert.deepEqual(await readTexts(input, 1), ['four']);
  });

  it('survives a client that resets mid-frame: its whole lines arrive, the partial one does not', async () => {
    const port = await freePort();
    const input = await server(`socket_server:\n  network: tcp\n  address: 127.0.0.1:${port}\n`);
    const got = readTexts(input, 1);
    const rude = await clientOf(port);
    rude.write('whole\nhalf-a-li');
    assert.deepEqual(await got, ['whole']);
    rude.resetAndDestroy();
    const polite = await tcpClient(port);
    polite.end('after\n');
    assert.deepEqual(await readTexts(input, 1), ['after']);
  });

  it('drops a client whose line exceeds the scanner limit and keeps serving others', async () => {
    const port = await freePort();
    const input = await server(
      `socket_server:\n  network: tcp\n  address: 127.0.0.1:${port}\n  scanner:\n    lines:\n      max_buffer_size: 64\n`,
    );
    const got = readTexts(input, 1);
    const garbage = await clientOf(port);
    const closed = new Promise<void>((resolve) => garbage.once('close', () => resolve()));
    garbage.on('error', () => undefined);
    garbage.write(`${'x'.repeat(10_000)}`);
    await closed; // the server hung up on it
    const good = await tcpClient(port);
    good.end('fine\n');
    assert.deepEqual(await got, ['fine']);
  });

  it('stops reading a client while the queue is full, then delivers every line', async () => {
    const port = await freePort();
    const reader = new SocketServerReader({
      network: 'tcp',
      address: `127.0.0.1:${port}`,
      scanner: splitLines({ maxBufferSize: 65536, omitEmpty: false }),
      logger: pino({ level: 'silent' }),
    });
    await reader.connect();
    try {
      const lines = 24_000;
      const line = `${'y'.repeat(999)}\n`;
      const client = await tcpClient(port);
      client.on('error', () => undefined);
      client.write(line.repeat(lines));
      await waitFor(() => reader.waiting >= 1024);
      // Full: what the server took off the socket is far less than what was sent.
      assert.ok(reader.waiting <= 1024 + 64, `queue holds ${reader.waiting}`);
      assert.ok(reader.bytesRead < (lines * line.length) / 2, `read ${reader.bytesRead} bytes`);
      let n = 0;
      while (n < lines) {
        const txn = await reader.read();
        assert.ok(txn);
        assert.equal(txn.batch[0]!.byteSize(), 999);
        n++;
      }
      client.destroy();
    } finally {
      await reader.close();
    }
  });

  it('reads a unix socket', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'nekton-sock-')), 'in.sock');
    const input = await server(`socket_server:\n  network: unix\n  address: ${path}\n`);
    const got = readTexts(input, 1);
    const client = await waitFor(
      () =>
        new Promise<Socket | undefined>((resolve) => {
          const s = connect(path, () => resolve(s));
          s.once('error', () => resolve(undefined));
        }),
    );
    client.end('via unix\n');
    assert.deepEqual(await got, ['via unix']);
  });

  it('reads udp datagrams', async () => {
    const port = await freePort();
    const input = await server(`socket_server:\n  network: udp\n  address: 127.0.0.1:${port}\n`);
    const client = createSocket('udp4');
    const first = readN(input, 2);
    // Datagrams sent before the socket is bound are lost: send until they arrive.
    const sender = setInterval(() => client.send('ping\npong\n', port, '127.0.0.1'), 20);
    try {
      const txns = await first;
      for (const t of txns) await t.ack(null);
      assert.deepEqual(texts(txns), ['ping', 'pong']);
    } finally {
      clearInterval(sender);
      client.close();
    }
  });

  it('serves tls with a self-signed certificate', async () => {
    const port = await freePort();
    const input = await server(
      `socket_server:\n  network: tls\n  address: 127.0.0.1:${port}\n  tls:\n    self_signed: true\n`,
    );
    const got = readTexts(input, 1);
    const client = await waitFor(
      () =>
        new Promise<Socket | undefined>((resolve) => {
          const s = tlsConnect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => resolve(s));
          s.once('error', () => resolve(undefined));
        }),
    );
    client.end('secret\n');
    assert.deepEqual(await got, ['secret']);
  });

  it('writes its bound address to address_cache under <label>_address', async () => {
    const resources = new ResourceManager();
    const cache = new MapCache();
    await resources.set('cache', 'addrs', cache, {});
    const input = await server(
      'label: foo\nsocket_server:\n  network: tcp\n  address: 127.0.0.1:0\n  address_cache: addrs\n',
      resources,
    );
    const got = readTexts(input, 1);
    const address = await waitFor(() => cache.values.get('foo_address'));
    const port = Number(Buffer.from(address).toString().split(':')[1]);
    assert.ok(port > 0);
    const client = await tcpClient(port);
    client.end('found\n');
    assert.deepEqual(await got, ['found']);
  });

  it('lints what it cannot run', () => {
    const lint = (body: string) => lintYaml(`input:\n  socket_server:\n${body}output:\n  drop: {}\n`);
    assert.deepEqual(lint('    network: unixgram\n    address: /tmp/x.sock\n'), [
      'network unixgram is not supported by nekton (Node.js has no unix datagram sockets)',
    ]);
    assert.deepEqual(lint('    network: tls\n    address: 127.0.0.1:6000\n'), [
      'network tls needs tls.cert_file and tls.key_file, or tls.self_signed',
    ]);
    assert.deepEqual(lint('    network: tcp\n    address: localhost\n'), [
      'address localhost: missing port in address',
    ]);
  });
});
