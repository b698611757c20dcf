import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { freePort, requireService, waitFor } from '../../helpers/kit.js';
import { Capture, client, NATS_URL, type RunningStream, startStream, unique } from './harness.js';

function inputYaml(subject: string, extra = ''): string {
  return `input:
  nats:
    urls: [ ${NATS_URL} ]
    subject: ${subject}
${extra}output:
  capture: {}
`;
}

async function connected(running: RunningStream): Promise<void> {
  await waitFor(() => running.stream.statuses().every((s) => s.connected), {
    message: 'the stream to connect',
    timeoutMs: 5000,
  });
}

describe('nats input and output (core NATS)', () => {
  it('round-trips messages with an interpolated subject, headers and metadata', async (t) => {
    if (!(await requireService(t, 'nats'))) return;
    const base = unique('nekton_core');
    const consumer = await startStream(inputYaml(`${base}.>`));
    try {
      await connected(consumer);
      const producer = await startStream(`input:
  generate:
    count: 5
    interval: ''
    mapping: |
      let n = counter()
      root = {"n": $n}
      meta kind = if $n % 2 == 0 { "even" } else { "odd" }
      meta trace_id = "t-" + $n.string()
output:
  nats:
    urls: [ ${NATS_URL} ]
    subject: '${base}.\${! @kind }'
    headers:
      Content-Type: application/json
    metadata:
      include_prefixes: [ trace_ ]
`);
      await waitFor(() => consumer.capture.messages.length === 5, { message: '5 messages', timeoutMs: 5000 });
      await producer.stop();
      const got = consumer.capture.messages;
      assert.deepEqual(got.map((m) => (m.structured() as { n: number }).n).sort(), [1, 2, 3, 4, 5]);
      for (const m of got) {
        const n = (m.structured() as { n: number }).n;
        assert.equal(m.getMeta('nats_subject'), `${base}.${n % 2 === 0 ? 'even' : 'odd'}`);
        assert.equal(m.getMeta('Content-Type'), 'application/json');
        assert.equal(m.getMeta('trace_id'), `t-${n}`);
        assert.equal(m.getMeta('kind'), undefined, 'metadata outside the filter is not sent');
      }
    } finally {
      await consumer.stop();
    }
  });

  it('splits a subject between the members of a queue group, each message once', async (t) => {
    if (!(await requireService(t, 'nats'))) return;
    const subject = unique('nekton_queue');
    const queue = unique('workers');
    const a = await startStream(inputYaml(subject, `    queue: ${queue}\n`));
    const b = await startStream(inputYaml(subject, `    queue: ${queue}\n`));
    const nc = await client();
    try {
      await connected(a);
      await connected(b);
      for (let i = 0; i < 100; i++) nc.publish(subject, `m${i}`);
      await nc.flush();
      await waitFor(() => a.capture.messages.length + b.capture.messages.length === 100, {
        message: '100 messages between both members',
        timeoutMs: 5000,
      });
      const all = [...a.capture.texts(), ...b.capture.texts()];
      assert.equal(new Set(all).size, 100, 'no message delivered twice');
      assert.ok(a.capture.messages.length > 0 && b.capture.messages.length > 0, 'both members got work');
    } finally {
      await nc.close();
      await a.stop();
      await b.stop();
    }
  });

  it('answers a request with +ACK only after the message was delivered', async (t) => {
    if (!(await requireService(t, 'nats'))) return;
    const subject = unique('nekton_ack');
    const capture = new Capture();
    let refuse = true;
    capture.failWhen = () => refuse;
    const consumer = await startStream(inputYaml(subject, '    auto_replay_nacks: false\n'), capture);
    const nc = await client();
    try {
      await connected(consumer);
      const nak = await nc.request(subject, 'first', { timeout: 3000 });
      assert.equal(nak.string(), '-NAK', 'a failed delivery is answered with -NAK');
      refuse = false;
      const ack = await nc.request(subject, 'second', { timeout: 3000 });
      assert.equal(ack.string(), '+ACK');
      assert.deepEqual(capture.texts(), ['second']);
      assert.equal(capture.messages[0]?.getMeta('nats_reply_subject') !== undefined, true);
    } finally {
      await nc.close();
      await consumer.stop();
    }
  });

  it('reports a wrong address on the status, naming it, and keeps retrying without crashing', async (t) => {
    if (!(await requireService(t, 'nats'))) return;
    const port = await freePort();
    const running = await startStream(`input:
  nats:
    urls: [ nats://127.0.0.1:${port} ]
    subject: nowhere
output:
  nats:
    urls: [ nats://127.0.0.1:${port} ]
    subject: nowhere
`);
    try {
      const statuses = await waitFor(
        () => {
          const s = running.stream.statuses();
          return s.length === 2 && s.every((x) => x.error) ? s : null;
        },
        { message: 'both components to report the failure', timeoutMs: 5000 },
      );
      for (const s of statuses ?? []) {
        assert.equal(s.connected, false);
        assert.match(
          s.error ?? '',
          new RegExp(`cannot connect to NATS at nats://127\\.0\\.0\\.1:${port}: .+`),
        );
      }
      assert.equal(running.stream.isReady(), false);
    } finally {
      await running.stop();
    }
  });
});
