// amqp_0_9 in transaction groups: the input hands out the deliveries the broker already sent
// (prefetch) together and acks runs of them with one multiple ack; the output publishes a group
// and waits for all its confirms. A multiple ack must never cover a delivery still in flight (the
// broker would close the channel or lose it), and a failed group must be redelivered.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import { pino } from 'pino';
import type { AmqpInputConfig } from '../../../src/components/amqp/input_fields.js';
import { AmqpReader } from '../../../src/components/amqp/reader.js';
import { requireService, waitFor } from '../../helpers/kit.js';
import { TLS_OFF } from '../../helpers/tls.js';
import { AMQP_URL, messagesIn, RabbitFixtures } from './rabbitmq.js';
import { startStream } from './stream_yaml.js';

const URL = AMQP_URL;
const run = randomBytes(4).toString('hex');

let rabbit: RabbitFixtures | null = null;
let admin: ChannelModel | null = null;
let channel: Channel;
const name = (what: string) => `nekton-test-grp-${what}-${run}`;
const queue = (what: string) => rabbit!.queue(what);

function readerConfig(q: string, prefetch: number): AmqpInputConfig {
  return {
    urls: [URL],
    queue: q,
    queue_declare: undefined,
    bindings_declare: [],
    consumer_tag: '',
    auto_ack: false,
    nack_reject_patterns: [],
    prefetch_count: prefetch,
    prefetch_size: 0,
    tls: TLS_OFF,
  };
}

describe('amqp_0_9 groups (RabbitMQ)', () => {
  before(async () => {
    rabbit = await RabbitFixtures.open(name);
    admin = rabbit?.admin ?? null;
    if (rabbit) channel = rabbit.channel;
  });

  after(async () => {
    await rabbit?.close();
  });

  it('delivers every message when a group publish fails in the middle, leaving nothing unacked', async (t) => {
    if (!(await requireService(t, 'rabbitmq'))) return;
    const source = await queue('src');
    const sink = await queue('sink');
    const got: ConsumeMessage[] = [];
    const reader = await (admin as ChannelModel).createChannel();
    await reader.consume(sink, (m) => m && got.push(m), { noAck: true });
    const n = 300;
    for (let i = 0; i < n; i++) channel.sendToQueue(source, Buffer.from(`m${i}`));
    // m150's first publish goes nowhere: `mandatory` makes the broker return it, which fails the
    // write it was part of; its messages are nacked, requeued and delivered again.
    const s = await startStream(`input:
  amqp_0_9:
    urls: [ ${URL} ]
    queue: ${source}
    prefetch_count: 100
pipeline:
  processors:
    - mapping: root = content().string().uppercase()
output:
  amqp_0_9:
    urls: [ ${URL} ]
    exchange: ''
    mandatory: true
    key: '\${! if content().string() == "M150" && @amqp_redelivered == "false" { "${name('nowhere')}" } else { "${sink}" } }'
`);
    try {
      const expected = Array.from({ length: n }, (_, i) => `M${i}`).sort();
      await waitFor(() => new Set(got.map((m) => m.content.toString())).size === n, {
        message: `all ${n} messages in the sink`,
        timeoutMs: 20_000,
      });
      assert.deepEqual([...new Set(got.map((m) => m.content.toString()))].sort(), expected);
      await waitFor(
        async () => {
          const q = await messagesIn(source);
          return q.ready === 0 && q.unacked === 0;
        },
        { message: 'source drained and acked' },
      );
    } finally {
      await s.stop();
      await reader.close();
    }
    assert.equal((await channel.checkQueue(source)).messageCount, 0, 'nothing requeued after stop');
  });

  it('acks runs with one multiple ack and the rest one by one, never covering an unsettled delivery', async (t) => {
    if (!(await requireService(t, 'rabbitmq'))) return;
    const source = await queue('unit');
    for (let i = 0; i < 10; i++) channel.sendToQueue(source, Buffer.from(`e${i}`));
    const reader = new AmqpReader(readerConfig(source, 10), pino({ level: 'silent' }));
    await reader.connect();
    try {
      await waitFor(async () => (await messagesIn(source)).unacked === 10, {
        message: 'all 10 sent to the reader',
      });
      const first = await reader.read();
      assert.equal(first?.batch[0]?.text(), 'e0');
      // Give the rest of the prefetch window time to arrive.
      await new Promise((r) => setTimeout(r, 200));
      const group = reader.readBufferedGroup(100);
      assert.ok(group, 'the rest of the prefetch window is buffered');
      const texts = group.batches.map((b) => b[0]!.text());
      assert.deepEqual(texts, ['e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7', 'e8', 'e9']);
      const [e1, e2, e3, e4, e5, ...tail] = group.batches;
      await first!.ack(null); // tag 1: starts a run
      await group.ack(null, [e1!, e2!]); // tags 2-3: extend it
      await group.ack(null, [e4!, e5!]); // tags 5-6: a gap below (tag 4), acked one by one
      await new Promise((r) => setImmediate(r)); // the run (1-3) has gone out as one multiple ack
      await group.ack(new Error('failed'), [e3!]); // tag 4, still in flight until now: requeued
      await group.ack(null, tail); // tags 7-10: a new run above the settled 1-6
      const again = await reader.read();
      assert.equal(again?.batch[0]?.text(), 'e3', 'the nacked message is redelivered');
      assert.equal(again?.batch[0]?.getMeta('amqp_redelivered'), 'true');
      await again!.ack(null);
      await waitFor(
        async () => {
          const q = await messagesIn(source);
          return q.ready === 0 && q.unacked === 0;
        },
        { message: 'everything acked, the channel still open' },
      );
    } finally {
      await reader.close();
    }
    assert.equal((await channel.checkQueue(source)).messageCount, 0);
  });
});
