// The beanstalkd components when their server goes away: private beanstalkds (with a binlog, so
// their jobs survive) are killed (SIGKILL) and restarted under a running stream, an idle output
// notices a cut connection, and a closed port is reported naming the address.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ConnectionStatus } from '../../../src/engine/component.js';
import { closedPort, requireService, TcpProxy, waitFor } from '../../helpers/kit.js';
import { type RunningStream, startStream } from '../amqp/stream_yaml.js';
import { Admin, PrivateBeanstalkd } from './helpers.js';

/** Waits until the stream's components (or only those under `prefix`) are all down, with an error each. */
async function outage(run: RunningStream, prefix = ''): Promise<ConnectionStatus[]> {
  const down = await waitFor(
    () => {
      const st = run.stream.statuses().filter((s) => s.path.startsWith(prefix));
      return st.length > 0 && st.every((s) => !s.connected && s.error) ? st : null;
    },
    { message: 'the outage on the statuses' },
  );
  assert.equal(run.stream.isReady(), false, '/ready says not connected');
  return down;
}

describe('beanstalkd reconnects', () => {
  it('servers killed and restarted mid-stream: both sides reconnect, nothing is lost, /ready follows', async (t) => {
    if (!(await requireService(t, 'beanstalkd'))) return;
    const source = await PrivateBeanstalkd.start();
    const sink = await PrivateBeanstalkd.start();
    let run: RunningStream | null = null;
    let src: Admin | null = await Admin.open(source.address);
    let dst: Admin | null = null;
    try {
      const expected = Array.from({ length: 150 }, (_, i) => `job-${i}`);
      await src.put(...expected.slice(0, 100));
      run = await startStream(`
input:
  beanstalkd:
    address: ${source.address}
pipeline:
  processors:
    # 10 ms a message: the test must see some but not all of the 100 through before it kills
    # the servers, also when a loaded machine polls late (2 ms let all 100 through once in CI).
    - sleep: { duration: 10ms }
output:
  beanstalkd:
    address: ${sink.address}
`);
      dst = await Admin.open(sink.address);
      const received = new Set<string>();
      const d = dst;
      await waitFor(
        async () => {
          for (const body of await d.drain()) received.add(body);
          return received.size > 10;
        },
        { message: 'some delivered' },
      );
      assert.ok(received.size < 100, `killed mid-stream (${received.size} of 100 through)`);
      src.close();
      dst.close();
      await source.kill();
      await sink.kill();
      const errors = (await outage(run)).map((s) => s.error ?? '');
      assert.ok(
        errors.some((e) => e.includes(source.address)),
        `an error names the source: ${errors}`,
      );
      await source.restart();
      await sink.restart();
      src = await Admin.open(source.address);
      dst = await Admin.open(sink.address);
      await src.put(...expected.slice(100));
      const live = dst;
      await waitFor(
        async () => {
          for (const body of await live.drain()) received.add(body);
          return received.size === 150;
        },
        { message: () => `all 150 delivered after the restart (${received.size})`, timeoutMs: 20_000 },
      );
      assert.deepEqual([...received].sort(), [...expected].sort());
      const s = src;
      await waitFor(async () => (await s.reserve()) === null, { message: 'the source emptied' });
      await waitFor(() => run?.stream.isReady(), { message: 'ready again' });
    } finally {
      await run?.stop();
      src?.close();
      dst?.close();
      await source.dispose();
      await sink.dispose();
    }
  });

  it('an idle output reports a cut connection on its status and reconnects without a write', async (t) => {
    if (!(await requireService(t, 'beanstalkd'))) return;
    // A private server: a message that did reach it must not land in the shared server's tube.
    const server = await PrivateBeanstalkd.start();
    const proxy = await TcpProxy.start({ host: '127.0.0.1', port: server.port });
    const run = await startStream(`
input:
  generate:
    interval: 1h
    mapping: root = "never"
output:
  beanstalkd:
    address: 127.0.0.1:${proxy.port}
`);
    try {
      const output = () => run.stream.statuses().find((s) => s.path.startsWith('output'));
      await waitFor(() => output()?.connected === true, { message: 'the output connected' });
      await proxy.cut();
      const lost = await waitFor(() => (output()?.connected === false ? output() : null), {
        message: 'the cut on the idle output',
      });
      assert.match(lost.error ?? '', new RegExp(`beanstalkd at 127\\.0\\.0\\.1:${proxy.port}`));
      assert.equal(run.stream.isReady(), false);
      await proxy.resume();
      await waitFor(() => output()?.connected === true, { message: 'connected again', timeoutMs: 15_000 });
      assert.equal(run.stream.isReady(), true);
    } finally {
      await run.stop();
      await proxy.cut();
      await server.dispose();
    }
  });

  it('reports a closed port naming the address, and keeps retrying without crashing', async (t) => {
    if (!(await requireService(t, 'beanstalkd'))) return;
    const [inPort, outPort] = [await closedPort(), await closedPort()];
    const run = await startStream(`
input:
  beanstalkd:
    address: 127.0.0.1:${inPort}
output:
  beanstalkd:
    address: 127.0.0.1:${outPort}
`);
    try {
      const [input, output] = (await outage(run)).map((s) => s.error ?? '');
      assert.match(
        input ?? '',
        new RegExp(`failed to connect to beanstalkd at 127\\.0\\.0\\.1:${inPort}: .*ECONNREFUSED`),
      );
      assert.match(
        output ?? '',
        new RegExp(`failed to connect to beanstalkd at 127\\.0\\.0\\.1:${outPort}: .*ECONNREFUSED`),
      );
      assert.equal(run.stream.active, true, 'still running, retrying');
    } finally {
      await run.stop();
    }
  });
});
