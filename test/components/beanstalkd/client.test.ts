// The small beanstalkd protocol client: against the local beanstalkd (pipelined commands answered
// in order, big jobs, error replies, a dropped connection), and against a scripted TCP peer for
// replies that arrive split at awkward places and for a peer that does not speak the protocol.
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import {
  BeanstalkdConnection,
  BeanstalkdReplyError,
  parseAddress,
} from '../../../src/components/beanstalkd/client.js';
import { NotConnectedError } from '../../../src/engine/errors.js';
import { closedPort, requireService } from '../../helpers/kit.js';
import { PrivateBeanstalkd } from './helpers.js';

/** A TCP peer that answers each received line with the next scripted list of chunks. */
async function scriptedPeer(replies: Buffer[][]): Promise<{ server: Server; address: string }> {
  const server = createServer((socket: Socket) => {
    let pending = '';
    socket.on('data', async (data) => {
      pending += data.toString('latin1');
      for (let end = pending.indexOf('\r\n'); end >= 0; end = pending.indexOf('\r\n')) {
        pending = pending.slice(end + 2);
        for (const chunk of replies.shift() ?? []) {
          socket.write(chunk);
          // A separate write per chunk, so the client sees them in separate reads.
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { server, address: `127.0.0.1:${port}` };
}

describe('beanstalkd client', () => {
  it('parses addresses as the reference dials them', () => {
    assert.deepEqual(parseAddress('10.0.0.1:11300'), { host: '10.0.0.1', port: 11300 });
    assert.deepEqual(parseAddress('[::1]:11300'), { host: '::1', port: 11300 });
    assert.deepEqual(parseAddress(':11300'), { host: '127.0.0.1', port: 11300 });
    for (const bad of ['localhost', 'host:0', 'host:70000', '::1:11300', 'host:port'])
      assert.throws(() => parseAddress(bad), /expected host:port/, bad);
  });

  it('answers pipelined commands in order, big jobs included', async (t) => {
    if (!(await requireService(t, 'beanstalkd'))) return;
    const server = await PrivateBeanstalkd.start('-z', String(1 << 20));
    const connection = await BeanstalkdConnection.open(server.address);
    try {
      const big = Buffer.alloc(300_000, 7);
      // Issued in one tick: they travel together and their replies come back together.
      const ids = await Promise.all([
        connection.put(Buffer.from('a'), 10, 0, 60),
        connection.put(big, 10, 0, 60),
        connection.put(Buffer.from('c\r\nd'), 10, 0, 60),
      ]);
      assert.equal(new Set(ids).size, 3);
      const jobs = await Promise.all([connection.reserve(0), connection.reserve(0), connection.reserve(0)]);
      assert.deepEqual(
        jobs.map((j) => (typeof j === 'object' ? j.id : j)),
        ids,
      );
      const bodies = jobs.map((j) => (typeof j === 'object' ? j.body : Buffer.alloc(0)));
      assert.equal(bodies[0]?.toString(), 'a');
      assert.ok(bodies[1]?.equals(big), 'the 300 kB job intact');
      assert.equal(bodies[2]?.toString(), 'c\r\nd');
      assert.equal(await connection.reserve(0), 'TIMED_OUT');
      await Promise.all(ids.map((id) => connection.delete(id)));
      await assert.rejects(connection.delete(ids[0] ?? ''), (err: Error) => {
        assert.ok(err instanceof BeanstalkdReplyError);
        assert.match(err.message, /delete \d+: NOT_FOUND/);
        return true;
      });
    } finally {
      connection.destroy();
      await server.dispose();
    }
  });

  it('fails commands in progress with NotConnectedError when the server dies, naming it', async (t) => {
    if (!(await requireService(t, 'beanstalkd'))) return;
    const server = await PrivateBeanstalkd.start();
    const connection = await BeanstalkdConnection.open(server.address);
    let lost: Error | null = null;
    connection.onLost((err) => (lost = err));
    try {
      // Settled into a value at once: the rejection comes while the test is still killing.
      const waiting = connection.reserve(30).then(
        () => null,
        (err: unknown) => err,
      );
      await server.kill();
      const err = await waiting;
      assert.ok(err instanceof NotConnectedError, String(err));
      assert.match(err.message, new RegExp(`beanstalkd at ${server.address}`));
      assert.ok(lost, 'the loss reported');
      await assert.rejects(connection.put(Buffer.from('x'), 0, 0, 1), NotConnectedError);
    } finally {
      await server.dispose();
    }
  });

  it('names the address when nothing listens', async () => {
    const port = await closedPort();
    await assert.rejects(
      BeanstalkdConnection.open(`127.0.0.1:${port}`),
      new RegExp(`failed to connect to beanstalkd at 127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`),
    );
  });

  it('reassembles replies split across reads, even between the data and its CRLF', async () => {
    const { server, address } = await scriptedPeer([
      [
        Buffer.from('RESER'),
        Buffer.from('VED 9 5\r'),
        Buffer.from('\nhel'),
        Buffer.from('lo\r'),
        Buffer.from('\n'),
      ],
      [Buffer.from('DELETED\r\nINSERTED 10\r\n')],
      [],
    ]);
    const connection = await BeanstalkdConnection.open(address);
    try {
      const job = await connection.reserve(0);
      assert.deepEqual(typeof job === 'object' ? [job.id, job.body.toString()] : job, ['9', 'hello']);
      // Two replies in one read settle two commands.
      const [, id] = await Promise.all([connection.delete('9'), connection.put(Buffer.from('x'), 0, 0, 1)]);
      assert.equal(id, '10');
    } finally {
      connection.destroy();
      server.close();
    }
  });

  it('drops the connection when the peer does not speak the protocol', async () => {
    const { server, address } = await scriptedPeer([[Buffer.from('RESERVED 1 3\r\nabcXY')]]);
    const connection = await BeanstalkdConnection.open(address);
    try {
      await assert.rejects(connection.reserve(0), NotConnectedError);
      assert.match(connection.lost?.message ?? '', /protocol error: job data not followed by CRLF/);
    } finally {
      connection.destroy();
      server.close();
    }
  });
});
