// The test kit itself: a wait that can never fail or never end would hide the failures it is
// there to catch, and a port that cannot be bound would fail tests for the wrong reason.
import assert from 'node:assert/strict';
import { type AddressInfo, createServer, connect as netConnect } from 'node:net';
import { describe, it } from 'node:test';
import { Message } from '../../src/message/message.js';
import {
  CallRecorder,
  closedPort,
  freePort,
  GroupCallRecorder,
  postgresPool,
  requireListening,
  requireService,
  SERVICES,
  waitFor,
} from './kit.js';

describe('waitFor', () => {
  it('resolves with the first truthy value once the condition turns true', async () => {
    let polls = 0;
    const value = await waitFor(() => (++polls >= 3 ? { polls } : undefined), { intervalMs: 1 });
    assert.deepEqual(value, { polls: 3 });
  });

  it('awaits an async condition', async () => {
    let ready = false;
    setTimeout(() => (ready = true), 30);
    assert.equal(await waitFor(async () => ready && 'ready', { intervalMs: 5 }), 'ready');
  });

  it('rejects with the message after the timeout', async () => {
    const started = Date.now();
    await assert.rejects(
      waitFor(() => false, { timeoutMs: 80, intervalMs: 10, message: 'the moon' }),
      {
        message: 'timed out waiting for the moon',
      },
    );
    assert.ok(Date.now() - started >= 80, 'it must keep polling until the timeout');
  });

  it('reads a message function only when the wait fails', async () => {
    let reads = 0;
    const message = () => `logs #${++reads}`;
    await waitFor(() => true, { message });
    assert.equal(reads, 0);
    await assert.rejects(
      waitFor(() => 0, { timeoutMs: 20, intervalMs: 5, message }),
      /for logs #1$/,
    );
  });

  it('retries a condition that throws and reports the last error on timeout', async () => {
    let polls = 0;
    const value = await waitFor(
      () => {
        if (++polls < 3) throw new Error('connection refused');
        return polls;
      },
      { intervalMs: 1 },
    );
    assert.equal(value, 3);
    await assert.rejects(
      waitFor(
        () => {
          throw new Error('still refused');
        },
        { timeoutMs: 20, intervalMs: 5, message: 'the server' },
      ),
      { message: 'timed out waiting for the server: Error: still refused' },
    );
  });

  it('with failFast, a thrown error fails the wait at once', async () => {
    let polls = 0;
    const started = Date.now();
    await assert.rejects(
      waitFor(
        () => {
          polls++;
          throw new Error('the child exited');
        },
        { timeoutMs: 5_000, failFast: true },
      ),
      { message: 'the child exited' },
    );
    assert.equal(polls, 1);
    assert.ok(Date.now() - started < 1_000);
  });
});

describe('freePort', () => {
  it('gives a port a server can bind on 127.0.0.1', async () => {
    const port = await freePort();
    assert.ok(Number.isInteger(port) && port > 0 && port < 65_536);
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('closedPort gives a port where connections are refused', async () => {
    const port = await closedPort();
    const code = await new Promise<string | undefined>((resolve) => {
      const socket = netConnect({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolve('connected');
      });
      socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code));
    });
    assert.equal(code, 'ECONNREFUSED');
  });
});

describe('recording outputs', () => {
  it('record one call per write and a group write as one call', async () => {
    const single = new CallRecorder();
    await single.write([new Message('a'), new Message('b')]);
    assert.deepEqual(single.calls, [['a+b']]);
    const grouped = new GroupCallRecorder();
    await grouped.writeGroup([[new Message('x')], [new Message('y'), new Message('z')]]);
    assert.deepEqual(grouped.calls, [['x', 'y+z']]);
    await grouped.close();
    assert.equal(grouped.closed, true);
  });
});

describe('services', () => {
  const skips: string[] = [];
  const context = { skip: (message?: string) => void skips.push(message ?? '') };
  const withCi = async <T>(ci: string | undefined, run: () => Promise<T>): Promise<T> => {
    const saved = process.env.CI;
    if (ci === undefined) delete process.env.CI;
    else process.env.CI = ci;
    try {
      return await run();
    } finally {
      if (saved === undefined) delete process.env.CI;
      else process.env.CI = saved;
    }
  };

  it('a listening service is required without a skip', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const ok = await withCi('true', () => requireListening(context, 'fake', { host: '127.0.0.1', port }));
      assert.equal(ok, true);
      assert.deepEqual(skips, []);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('on CI a missing service fails the test instead of skipping it', async () => {
    const port = await closedPort();
    await withCi('true', () =>
      assert.rejects(requireListening(context, 'fake', { host: '127.0.0.1', port }), {
        message: `fake is not reachable at 127.0.0.1:${port} (CI=true: connector tests must not skip)`,
      }),
    );
    assert.deepEqual(skips, []);
  });

  it('off CI a missing service skips the test, saying which service', async () => {
    const port = await closedPort();
    const ok = await withCi(undefined, () => requireListening(context, 'fake', { host: '127.0.0.1', port }));
    assert.equal(ok, false);
    assert.deepEqual(skips, [`fake is not reachable at 127.0.0.1:${port}; start it to run this test`]);
  });

  it('name every local service the connector tests use, on loopback', () => {
    assert.deepEqual(Object.keys(SERVICES).sort(), [
      'beanstalkd',
      'mariadb',
      'memcached',
      'mqtt',
      'nats',
      'postgres',
      'rabbitmq',
      'redis',
    ]);
    for (const { host } of Object.values(SERVICES)) assert.equal(host, '127.0.0.1');
  });
});

describe('service clients', () => {
  it('postgresPool queries the local PostgreSQL and survives a killed connection', async (t) => {
    if (!(await requireService(t, 'postgres'))) return;
    const pool = postgresPool();
    try {
      const { rows } = await pool.query('SELECT current_database() AS db, 41 + 1 AS answer');
      assert.deepEqual(rows, [{ db: 'test', answer: 42 }]);
      // An idle connection killed from outside emits 'error' on the pool; unhandled, it would crash.
      const { rows: pids } = await pool.query('SELECT pg_backend_pid() AS pid');
      const killer = postgresPool();
      await killer.query('SELECT pg_terminate_backend($1)', [pids[0].pid]);
      await killer.end();
      await new Promise((r) => setTimeout(r, 100));
      const again = await pool.query('SELECT 1 AS one');
      assert.deepEqual(again.rows, [{ one: 1 }]);
    } finally {
      await pool.end();
    }
  });
});
