// Scale-out over a NATS JetStream durable consumer: two nekton instances pull from one durable,
// one is SIGKILLed halfway and replaced; what it held unacknowledged is redelivered after ack_wait.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { requireService } from '../helpers/kit.js';
import { describeResult, runScaleOut, type ScaleOutBroker, scaleN, uniqueName } from './harness.js';

function natsJetStreamBroker(): ScaleOutBroker {
  const stream = uniqueName('NEKTON_SCALE');
  const subject = `${stream}.orders`;
  const durable = uniqueName('workers');
  let nc: NatsConnection | null = null;
  const conn = () => {
    if (!nc) throw new Error('not connected');
    return nc;
  };
  return {
    name: 'nats_jetstream',
    async setup() {
      nc = await connect({ servers: '127.0.0.1:4222' });
      const jsm = await jetstreamManager(nc);
      await jsm.streams.add({ name: stream, subjects: [subject] });
    },
    inputYaml: () => `input:
  nats_jetstream:
    urls: [ nats://127.0.0.1:4222 ]
    stream: ${stream}
    subject: ${subject}
    durable: ${durable}
    deliver: all
    ack_wait: 3s
`,
    async publish(bodies) {
      const js = jetstream(conn());
      for (let at = 0; at < bodies.length; at += 1000) {
        await Promise.all(bodies.slice(at, at + 1000).map((b) => js.publish(subject, b)));
      }
    },
    async teardown() {
      const jsm = await jetstreamManager(conn());
      await jsm.streams.delete(stream).catch(() => undefined);
      await conn().close();
    },
  };
}

describe('scaling out over a NATS JetStream durable consumer', () => {
  it('two instances, one SIGKILLed halfway and replaced: every message reaches PostgreSQL', async (t) => {
    if (!(await requireService(t, 'nats'))) return;
    if (!(await requireService(t, 'postgres'))) return;
    const n = scaleN();
    const result = await runScaleOut(natsJetStreamBroker(), n, Math.max(60_000, n * 5));
    t.diagnostic(describeResult(result));
    assert.equal(result.distinct, n, 'messages are missing');
    assert.ok(result.distinctAtKill < n, 'the kill came after every message was written: nothing was tested');
    assert.ok(
      (result.perInstance.a ?? 0) > 0 && (result.perInstance.b ?? 0) + (result.perInstance.b2 ?? 0) > 0,
    );
  });
});
