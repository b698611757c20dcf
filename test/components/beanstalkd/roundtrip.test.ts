// The beanstalkd input and output against the local beanstalkd (Debian's, on 127.0.0.1:11300):
// messages put by the output come out of the input in order, byte for byte; an ack deletes the
// job, a nack releases it so it is delivered again; a stopped input lets go of the tube.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Input, Transaction } from '../../../src/engine/component.js';
import { BEANSTALKD_ADDRESS, requireService, waitFor } from '../../helpers/kit.js';
import { startStream } from '../amqp/stream_yaml.js';
import { Admin, buildInput, inputYaml, PrivateBeanstalkd } from './helpers.js';

let admin: Admin | null = null;
const tag = `${process.pid}-${Date.now()}`;

/** Reads the next message of the input as text, with its transaction. */
async function next(input: Input) {
  const txn = await input.read();
  assert.ok(txn, 'a message');
  return { text: txn.batch[0]?.text(), bytes: txn.batch[0]?.bytes(), ack: txn.ack };
}

/** How many connections watch the default tube. */
async function watching(a: Admin): Promise<number> {
  const reply = await a.connection.request('stats-tube default');
  return Number(/^current-watching: (\d+)$/m.exec(reply.body?.toString() ?? '')?.[1]);
}

describe('beanstalkd input and output (local beanstalkd)', () => {
  before(async () => {
    admin = await Admin.open(BEANSTALKD_ADDRESS).catch(() => null);
    // Jobs a failed earlier run left behind would be read first.
    await admin?.drain();
  });
  after(() => admin?.close());

  it('round trip: the output puts every message, the input reserves them in order and ack deletes them', async (t) => {
    if (!(await requireService(t, 'beanstalkd'))) return;
    const a = admin as Admin;
    const producer = await startStream(`
input:
  generate:
    count: 20
    interval: ''
    mapping: 'root = "rt-${tag}-" + counter().string()'
output:
  beanstalkd:
    address: ${BEANSTALKD_ADDRESS}
`);
    await producer.done;
    const input = await buildInput(inputYaml(BEANSTALKD_ADDRESS));
    try {
      const got: string[] = [];
      for (let i = 0; i < 20; i++) {
        const { text, ack } = await next(input);
        got.push(text ?? '');
        await ack(null);
      }
      assert.deepEqual(
        got,
        Array.from({ length: 20 }, (_, i) => `rt-${tag}-${i + 1}`),
      );
      assert.equal(await a.reserve(), null, 'every job deleted on ack');
    } finally {
      await input.close();
    }
  });

  it('carries any bytes, CR LF included, both ways', async (t) => {
    if (!(await requireService(t, 'beanstalkd'))) return;
    const a = admin as Admin;
    const body = Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256));
    const [id] = [await a.connection.put(body, 100, 0, 60)];
    const input = await buildInput(inputYaml(BEANSTALKD_ADDRESS));
    try {
      const { bytes, ack } = await next(input);
      assert.deepEqual(Buffer.from(bytes ?? []), body);
      await ack(null);
      assert.equal(await a.state(id), 'gone');
    } finally {
      await input.close();
    }
  });

  it('nack releases the job, which is delivered again; ack then deletes it', async (t) => {
    if (!(await requireService(t, 'beanstalkd'))) return;
    const a = admin as Admin;
    const [id] = await a.put(`nack-${tag}`);
    const input = await buildInput(inputYaml(BEANSTALKD_ADDRESS));
    try {
      const first = await next(input);
      assert.equal(first.text, `nack-${tag}`);
      assert.equal(await a.state(id ?? ''), 'reserved');
      await first.ack(new Error('the output failed'));
      const second = await next(input);
      assert.equal(second.text, `nack-${tag}`, 'delivered again after the nack');
      await second.ack(null);
      assert.equal(await a.state(id ?? ''), 'gone');
    } finally {
      await input.close();
    }
  });

  it('keeps a job it still holds reserved past its time-to-run (touches it on DEADLINE_SOON)', async (t) => {
    if (!(await requireService(t, 'beanstalkd'))) return;
    const a = admin as Admin;
    // A time-to-run of 2 s, as the output (and the reference) puts jobs.
    const id = await a.connection.put(Buffer.from(`held-${tag}`), 100, 0, 2);
    const input = await buildInput(inputYaml(BEANSTALKD_ADDRESS));
    const unsettled = new Set<Transaction>();
    const take = (txn: Transaction | null) => {
      if (txn) unsettled.add(txn);
      return txn;
    };
    let reading: Promise<Transaction | null> | undefined;
    try {
      const held = take(await input.read());
      assert.equal(held?.batch[0]?.text(), `held-${tag}`);
      // The engine reads on while a message is in the pipeline: so does this test.
      reading = input.read().then(take);
      // Longer than the time-to-run: untouched, beanstalkd would have timed the job out by now.
      await new Promise((resolve) => setTimeout(resolve, 3500));
      const stats = (await a.connection.request(`stats-job ${id}`)).body?.toString() ?? '';
      assert.match(stats, /^state: reserved$/m);
      assert.match(stats, /^timeouts: 0$/m, 'never timed out');
      unsettled.delete(held as Transaction);
      await held?.ack(null);
      assert.equal(await a.state(id), 'gone');
      await input.close();
      assert.equal(await reading, null);
    } finally {
      // On a failure, settle what was handed out (close waits for it), the late read included.
      const settle = async (txn: Transaction) => {
        if (unsettled.delete(txn)) await txn.ack(new Error('test over')).catch(() => undefined);
      };
      reading?.then(
        (txn) => txn && settle(txn),
        () => undefined,
      );
      await Promise.all([...unsettled].map(settle));
      await input.close();
    }
  });

  it('stops cleanly while waiting for a job: the stream ends and its connection leaves the tube', async (t) => {
    if (!(await requireService(t, 'beanstalkd'))) return;
    // A private server: the shared one's tube is watched by other tests' connections too.
    const server = await PrivateBeanstalkd.start();
    const a = await Admin.open(server.address);
    const run = await startStream(inputYaml(server.address));
    try {
      await waitFor(() => run.stream.isReady(), { message: 'the stream connected' });
      await waitFor(async () => (await watching(a)) === 2, { message: 'the input watching' });
      await run.stop();
      await run.done;
      await waitFor(async () => (await watching(a)) === 1, { message: 'the connection closed' });
      // Nothing holds the tube now: a job put after the stop stays ready.
      const [id] = await a.put(`after-stop-${tag}`);
      assert.equal(await a.state(id ?? ''), 'ready');
    } finally {
      await run.stop();
      a.close();
      await server.dispose();
    }
  });
});
