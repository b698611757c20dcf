// Scale-out over RabbitMQ competing consumers: two nekton instances consume one queue, one is
// SIGKILLed halfway and replaced; the broker requeues what the dead connection left unacknowledged.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import amqp, { type ChannelModel, type ConfirmChannel } from 'amqplib';
import { AMQP_URL, requireService } from '../helpers/kit.js';
import { describeResult, runScaleOut, type ScaleOutBroker, scaleN, uniqueName } from './harness.js';

const URL = AMQP_URL;

function amqpBroker(): ScaleOutBroker {
  const queue = uniqueName('nekton_scale');
  let conn: ChannelModel | null = null;
  let channel: ConfirmChannel | null = null;
  const ch = () => {
    if (!channel) throw new Error('not connected');
    return channel;
  };
  return {
    name: 'amqp_0_9',
    async setup() {
      conn = await amqp.connect(URL);
      channel = await conn.createConfirmChannel();
      await channel.assertQueue(queue, { durable: true });
    },
    inputYaml: () => `input:
  amqp_0_9:
    urls: [ ${URL} ]
    queue: ${queue}
    prefetch_count: 100
`,
    async publish(bodies) {
      for (const b of bodies) ch().sendToQueue(queue, Buffer.from(b), { persistent: true });
      await ch().waitForConfirms();
    },
    async teardown() {
      await ch().deleteQueue(queue);
      await conn?.close();
    },
  };
}

describe('scaling out over RabbitMQ competing consumers', () => {
  it('two instances, one SIGKILLed halfway and replaced: every message reaches PostgreSQL', async (t) => {
    if (!(await requireService(t, 'rabbitmq'))) return;
    if (!(await requireService(t, 'postgres'))) return;
    const n = scaleN();
    const result = await runScaleOut(amqpBroker(), n, Math.max(60_000, n * 5));
    t.diagnostic(describeResult(result));
    assert.equal(result.distinct, n, 'messages are missing');
    assert.ok(result.distinctAtKill < n, 'the kill came after every message was written: nothing was tested');
    assert.ok(
      (result.perInstance.a ?? 0) > 0 && (result.perInstance.b ?? 0) + (result.perInstance.b2 ?? 0) > 0,
    );
  });
});
