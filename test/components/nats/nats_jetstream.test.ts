import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { connect } from '@nats-io/transport-node';
import { spec as outputSpec } from '../../../src/components/outputs/nats_jetstream.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';
import { isReachable, requireService, waitFor } from '../../helpers/kit.js';
import { configOf } from '../reference.js';
import {
  Capture,
  client,
  NATS_URL,
  PrivateNatsServer,
  type RunningStream,
  startStream,
  unique,
} from './harness.js';

function inputYaml(url: string, stream: string, subject: string, durable: string, extra = ''): string {
  return `input:
  nats_jetstream:
    urls: [ ${url} ]
    stream: ${stream}
    subject: ${subject}
    durable: ${durable}
    ack_wait: 2s
${extra}output:
  capture: {}
`;
}

async function connected(running: RunningStream): Promise<void> {
  await waitFor(() => running.stream.statuses().every((s) => s.connected), {
    message: 'the stream to connect',
  });
}

describe('nats_jetstream input and output', () => {
  let nc: NatsConnection | null = null;
  const streams: string[] = [];

  /** A stream of this run on the shared server, deleted after the suite. */
  async function createStream(subjects: string[]): Promise<string> {
    const name = unique('NEKTON');
    const jsm = await jetstreamManager(nc as NatsConnection);
    await jsm.streams.add({ name, subjects });
    streams.push(name);
    return name;
  }

  async function consumerInfo(stream: string, durable: string) {
    const jsm = await jetstreamManager(nc as NatsConnection);
    return jsm.consumers.info(stream, durable);
  }

  before(async () => {
    if (await isReachable('nats')) nc = await client();
  });

  after(async () => {
    if (!nc) return;
    const jsm = await jetstreamManager(nc);
    for (const s of streams) await jsm.streams.delete(s).catch(() => undefined);
    await nc.close();
  });

  it('round-trips through a stream with the reference metadata, acking every message', async (t) => {
    if (!(await requireService(t, 'nats'))) return;
    const base = unique('nekton_js');
    const stream = await createStream([`${base}.>`]);
    const producer = await startStream(`input:
  generate:
    count: 5
    interval: ''
    mapping: 'root = {"n": counter()}'
output:
  nats_jetstream:
    urls: [ ${NATS_URL} ]
    subject: '${base}.n\${! this.n }'
    headers:
      Source: nekton-test
`);
    const durable = unique('durable');
    const consumer = await startStream(inputYaml(NATS_URL, stream, `${base}.>`, durable));
    try {
      await waitFor(() => consumer.capture.messages.length === 5, { message: '5 messages' });
      const got = [...consumer.capture.messages].sort(
        (x, y) => Number(x.getMeta('nats_sequence_stream')) - Number(y.getMeta('nats_sequence_stream')),
      );
      assert.deepEqual(
        got.map((m) => m.getMeta('nats_sequence_stream')),
        [1, 2, 3, 4, 5],
      );
      for (const m of got) {
        const n = (m.structured() as { n: number }).n;
        assert.equal(m.getMeta('nats_subject'), `${base}.n${n}`);
        assert.equal(m.getMeta('nats_num_delivered'), 1);
        assert.equal(typeof m.getMeta('nats_sequence_consumer'), 'number');
        assert.equal(typeof m.getMeta('nats_num_pending'), 'number');
        assert.ok(Number(m.getMeta('nats_timestamp_unix_nano')) > 1.6e18, 'a timestamp in nanoseconds');
        assert.equal(m.getMeta('Source'), 'nekton-test');
      }
      // Acked after delivery: the server has nothing pending or unacknowledged for the durable.
      await waitFor(
        async () => {
          const info = await consumerInfo(stream, durable);
          return info.num_ack_pending === 0 && info.num_pending === 0 && info.delivered.stream_seq === 5;
        },
        { message: 'the consumer to have every message acked', timeoutMs: 5000 },
      );
    } finally {
      await producer.stop();
      await consumer.stop();
    }
  });

  it('naks a message whose delivery failed, so the server redelivers it', async (t) => {
    if (!(await requireService(t, 'nats'))) return;
    const subject = unique('nekton_nak');
    const stream = await createStream([subject]);
    const js = jetstream(nc as NatsConnection);
    for (let i = 0; i < 3; i++) await js.publish(subject, `m${i}`);
    const capture = new Capture();
    // The output refuses every first delivery once.
    capture.failWhen = (m) => m.getMeta('nats_num_delivered') === 1;
    const durable = unique('durable');
    const consumer = await startStream(inputYaml(NATS_URL, stream, subject, durable), capture);
    try {
      await waitFor(() => capture.messages.length === 3, { message: '3 redelivered messages' });
      assert.deepEqual(capture.texts().sort(), ['m0', 'm1', 'm2']);
      assert.ok(capture.failures >= 3, 'each message was refused once');
      for (const m of capture.messages) assert.equal(m.getMeta('nats_num_delivered'), 2);
      await waitFor(async () => (await consumerInfo(stream, durable)).num_ack_pending === 0, {
        message: 'no unacknowledged messages',
        timeoutMs: 5000,
      });
    } finally {
      await consumer.stop();
    }
  });

  it('shares one durable between two inputs, each message going to one of them', async (t) => {
    if (!(await requireService(t, 'nats'))) return;
    const subject = unique('nekton_share');
    const stream = await createStream([subject]);
    const js = jetstream(nc as NatsConnection);
    await Promise.all(Array.from({ length: 200 }, (_, i) => js.publish(subject, `m${i}`)));
    const durable = unique('shared');
    const slow = 'pipeline:\n  processors:\n    - sleep:\n        duration: 2ms\n';
    const a = await startStream(
      inputYaml(NATS_URL, stream, subject, durable, `    max_ack_pending: 10\n${slow}`),
    );
    const b = await startStream(
      inputYaml(NATS_URL, stream, subject, durable, `    max_ack_pending: 10\n${slow}`),
    );
    try {
      const all = () => [...a.capture.texts(), ...b.capture.texts()];
      await waitFor(() => new Set(all()).size === 200, {
        message: '200 messages between both inputs',
        timeoutMs: 15_000,
      });
      assert.ok(a.capture.messages.length > 0 && b.capture.messages.length > 0, 'both inputs got work');
      assert.equal(all().length, 200, 'no message was delivered twice');
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it('reports a missing stream on the status, naming it and the server', async (t) => {
    if (!(await requireService(t, 'nats'))) return;
    const missing = unique('MISSING');
    const running = await startStream(inputYaml(NATS_URL, missing, 'whatever', 'd'));
    try {
      const failed = await waitFor(
        () => {
          const failed = running.stream.statuses().filter((s) => s.error);
          return failed.length > 0 ? failed : null;
        },
        { message: 'the input to report the failure', timeoutMs: 5000 },
      );
      const status = failed?.[0];
      assert.match(
        status?.error ?? '',
        new RegExp(`NATS JetStream at 127\\.0\\.0\\.1:4222: stream '${missing}': .*not found`),
      );
    } finally {
      await running.stop();
    }
  });

  it('fails a publish no stream stores, so the message is nacked rather than lost', async (t) => {
    if (!(await requireService(t, 'nats'))) return;
    const ctx = createTestContext({ path: 'root.output' });
    const subject = unique('nekton_nostream');
    const output = await ctx.buildOutput({
      type: 'nats_jetstream',
      label: '',
      config: configOf(outputSpec, { urls: [NATS_URL], subject }),
      processors: [],
      path: 'root.output',
      raw: {},
    });
    try {
      // The client's own words ("jetstream is not enabled") would send the user the wrong way.
      await assert.rejects(
        output.write([new Message('x')]),
        new RegExp(`JetStream publish failed: no stream captures subject '${subject}'`),
      );
    } finally {
      await output.close();
    }
  });

  it('resumes a durable consumer without loss after the server is killed and restarted', async (t) => {
    if (!(await requireService(t, 'nats'))) return;
    const server = await PrivateNatsServer.start();
    // The test's own publisher rides out the outage by reconnecting.
    const pub = await connect({ servers: server.url, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
    let consumer: RunningStream | null = null;
    try {
      const subject = 'resume.events';
      await (await jetstreamManager(pub)).streams.add({ name: 'RESUME', subjects: [subject] });
      const js = jetstream(pub);
      const publish = async (from: number, to: number) => {
        for (let i = from; i < to; i++) {
          for (;;) {
            try {
              await js.publish(subject, String(i), { timeout: 1000 });
              break;
            } catch {
              await new Promise((r) => setTimeout(r, 100));
            }
          }
        }
      };
      await publish(0, 200);
      // A slow pipeline, so the server dies while messages are in flight.
      consumer = await startStream(
        `input:
  nats_jetstream:
    urls: [ ${server.url} ]
    stream: RESUME
    durable: resumer
    ack_wait: 2s
pipeline:
  processors:
    - sleep:
        duration: 5ms
output:
  capture: {}
`,
      );
      const capture = consumer.capture;
      await waitFor(() => capture.messages.length >= 40, { message: 'consumption to be under way' });
      await server.kill();
      const atKill = capture.messages.length;
      await waitFor(() => !consumer?.stream.isReady(), {
        message: 'the outage to show on the status',
        timeoutMs: 5000,
      });
      await server.restart();
      await publish(200, 300);
      await waitFor(() => new Set(capture.texts()).size === 300, {
        message: 'all 300 messages',
        timeoutMs: 20_000,
      });
      assert.ok(atKill < 200, `the kill happened mid-stream (${atKill} of the first 200 were in)`);
      const ids = new Set(capture.texts().map(Number));
      for (let i = 0; i < 300; i++) assert.ok(ids.has(i), `message ${i} arrived`);
      await connected(consumer);
    } finally {
      await consumer?.stop();
      await pub.close().catch(() => undefined);
      await server.dispose();
    }
  });
});
