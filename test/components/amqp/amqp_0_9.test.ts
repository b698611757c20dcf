// The amqp_0_9 input and output against the local RabbitMQ: round trip through the engine,
// metadata, ack only after delivery, nack + requeue on a failed output, reconnect after the
// broker closes nekton's connection, publisher confirms, and clear errors for bad addresses.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { type Channel, type ChannelModel, type ConsumeMessage, connect } from 'amqplib';
import { Message } from '../../../src/message/message.js';
import { requireService, waitFor } from '../../helpers/kit.js';
import { AMQP_URL, messagesIn, RabbitFixtures } from './rabbitmq.js';
import { buildOutput, type RunningStream, startStream } from './stream_yaml.js';

const URL = AMQP_URL;
const run = randomBytes(4).toString('hex');

let rabbit: RabbitFixtures | null = null;
let admin: ChannelModel | null = null;
let channel: Channel;
const name = (what: string) => `nekton-test-${what}-${run}`;
const queue = (what: string, args: Record<string, unknown> = {}) => rabbit!.queue(what, args);
const exchange = (what: string) => rabbit!.exchange(what);

/** Collects every message arriving on a queue (acked at once). */
async function collect(q: string): Promise<ConsumeMessage[]> {
  const got: ConsumeMessage[] = [];
  const ch = await (admin as ChannelModel).createChannel();
  await ch.consume(q, (m) => m && got.push(m), { noAck: true });
  return got;
}

/** The broker's ids (pids) of the connections with exactly these client-provided names. */
async function connectionPids(...names: string[]): Promise<string[]> {
  const { stdout } = await promisify(execFile)('rabbitmqctl', [
    'list_connections',
    'pid',
    'client_properties',
    '-q',
    '--no-table-headers',
  ]);
  return names.map((name) => {
    const line = stdout.split('\n').find((l) => l.includes(`{"connection_name","${name}"}`));
    assert.ok(line, `no connection named ${name}`);
    return line.split('\t')[0] as string;
  });
}

/** Closes that one connection from the broker's side, as an operator or a broker failover would. */
async function closeConnection(pid: string): Promise<void> {
  await promisify(execFile)('rabbitmqctl', ['close_connection', pid, 'nekton test kill']);
}

function inputYaml(q: string, extra = ''): string {
  return `input:
  label: in_${run}
  amqp_0_9:
    urls: [ ${URL} ]
    queue: ${q}
    prefetch_count: 5
${extra}`;
}

describe('amqp_0_9 input and output (RabbitMQ)', () => {
  let streams: RunningStream[] = [];

  before(async () => {
    rabbit = await RabbitFixtures.open(name);
    admin = rabbit?.admin ?? null;
    if (rabbit) channel = rabbit.channel;
  });

  after(async () => {
    for (const s of streams) await s.stop();
    await rabbit?.close();
  });

  async function start(yaml: string): Promise<RunningStream> {
    const s = await startStream(yaml);
    streams.push(s);
    return s;
  }

  async function stop(s: RunningStream): Promise<void> {
    await s.stop();
    streams = streams.filter((x) => x !== s);
  }

  it('round-trips through the engine with metadata, and acks only what was delivered', async (t) => {
    if (!(await requireService(t, 'rabbitmq'))) return;
    const source = await queue('src');
    const x = await exchange('out');
    const sink = await queue('sink');
    await channel.bindQueue(sink, x, 'done');
    const got = await collect(sink);
    const s = await start(
      `${inputYaml(source)}pipeline:
  processors:
    - mapping: |
        root.body = content().string()
        root.rk = @amqp_routing_key
        root.exchange = @amqp_exchange
        root.content_type = @amqp_content_type
        root.trace = @x_trace_id
        root.nested = @x_nested_inner
output:
  amqp_0_9:
    urls: [ ${URL} ]
    exchange: ${x}
    key: '\${! "done" }'
    content_type: application/json
    persistent: true
    metadata:
      exclude_prefixes: [ amqp_delivery_tag ]
`,
    );
    for (let i = 0; i < 20; i++)
      channel.sendToQueue(source, Buffer.from(`m${i}`), {
        contentType: 'text/plain',
        headers: { 'x-trace-id': `t${i}`, 'x-nested': { inner: 'deep' } },
      });
    await waitFor(() => got.length >= 20, { message: '20 messages in the sink' });
    const first = JSON.parse(
      (got.find((m) => m.content.includes('"m0"')) as ConsumeMessage).content.toString(),
    );
    assert.deepEqual(first, {
      body: 'm0',
      rk: source,
      exchange: null, // the default exchange's empty name is not set (as the reference does)
      content_type: 'text/plain',
      trace: 't0',
      nested: 'deep',
    });
    const bodies = got.map((m) => JSON.parse(m.content.toString()).body).sort();
    assert.deepEqual(bodies, Array.from({ length: 20 }, (_, i) => `m${i}`).sort());
    const out = got[0] as ConsumeMessage;
    assert.equal(out.properties.contentType, 'application/json');
    assert.equal(out.properties.deliveryMode, 2);
    assert.equal(out.properties.headers?.amqp_routing_key, source, 'metadata travels as headers');
    assert.equal(out.properties.headers?.amqp_delivery_tag, undefined, 'excluded prefix not sent');
    assert.ok(s.stream.isReady());
    await waitFor(
      async () => {
        const n = await messagesIn(source);
        return n.ready === 0 && n.unacked === 0;
      },
      { message: 'source queue drained and acked' },
    );
    await stop(s);
    const after = await channel.checkQueue(source);
    assert.equal(after.messageCount, 0, 'nothing requeued after stop: all were acked');
  });

  it('sets the reference metadata keys of a delivery through a named exchange', async (t) => {
    if (!(await requireService(t, 'rabbitmq'))) return;
    const x = await exchange('meta-in');
    const source = await queue('meta-src');
    await channel.bindQueue(source, x, 'rk.a');
    const sink = await queue('meta-sink');
    const got = await collect(sink);
    const s = await start(`${inputYaml(source)}output:
  amqp_0_9:
    urls: [ ${URL} ]
    exchange: ''
    key: ${sink}
`);
    channel.publish(x, 'rk.a', Buffer.from('m'), {
      messageId: 'id-1',
      correlationId: 'c-1',
      replyTo: 'answers',
      priority: 3,
      type: 'order',
      appId: 'shop',
      contentEncoding: 'gzip',
      deliveryMode: 2,
      timestamp: 1700000000,
      expiration: '60000',
    });
    await waitFor(() => got.length >= 1, { message: 'the message in the sink' });
    const h = (got[0] as ConsumeMessage).properties.headers ?? {};
    assert.equal(h.amqp_exchange, x);
    assert.equal(h.amqp_routing_key, 'rk.a');
    assert.equal(h.amqp_message_id, 'id-1');
    assert.equal(h.amqp_correlation_id, 'c-1');
    assert.equal(h.amqp_reply_to, 'answers');
    assert.equal(h.amqp_priority, '3');
    assert.equal(h.amqp_type, 'order');
    assert.equal(h.amqp_app_id, 'shop');
    assert.equal(h.amqp_content_encoding, 'gzip');
    assert.equal(h.amqp_delivery_mode, '2');
    assert.equal(h.amqp_expiration, '60000');
    assert.equal(h.amqp_redelivered, 'false');
    assert.ok(h.amqp_timestamp, 'timestamp set');
    assert.ok(h.amqp_consumer_tag, 'consumer tag set');
    assert.equal(h.amqp_delivery_tag, '1');
    await stop(s);
  });

  it('nacks with requeue when the output fails, and the broker redelivers', async (t) => {
    if (!(await requireService(t, 'rabbitmq'))) return;
    const source = await queue('nack-src');
    const sink = await queue('nack-sink');
    const got = await collect(sink);
    // The first delivery is rejected by the output; the redelivery goes through.
    const s = await start(
      `${inputYaml(source)}output:
  switch:
    cases:
      - check: '@amqp_redelivered == "false"'
        output:
          reject: 'first attempt fails'
      - output:
          amqp_0_9:
            urls: [ ${URL} ]
            exchange: ''
            key: ${sink}
`,
    );
    for (let i = 0; i < 5; i++) channel.sendToQueue(source, Buffer.from(`r${i}`));
    await waitFor(() => got.length >= 5, { message: '5 redelivered messages in the sink' });
    assert.deepEqual(got.map((m) => m.content.toString()).sort(), ['r0', 'r1', 'r2', 'r3', 'r4']);
    assert.ok(got.every((m) => m.properties.headers?.amqp_redelivered === 'true'));
    await stop(s);
    assert.equal((await channel.checkQueue(source)).messageCount, 0);
  });

  it('rejects without requeue when the error matches nack_reject_patterns (dead-lettered)', async (t) => {
    if (!(await requireService(t, 'rabbitmq'))) return;
    const dead = await queue('dead');
    const source = await queue('dlx-src', {
      'x-dead-letter-exchange': '',
      'x-dead-letter-routing-key': dead,
    });
    const s = await start(
      `${inputYaml(source, '    nack_reject_patterns: [ "^poison" ]\n')}output:
  reject: 'poison: \${! content() }'
`,
    );
    channel.sendToQueue(source, Buffer.from('bad'));
    await waitFor(async () => (await channel.checkQueue(dead)).messageCount === 1, {
      message: 'the message in the dead-letter queue',
    });
    await stop(s);
    assert.equal((await channel.checkQueue(source)).messageCount, 0, 'not requeued');
  });

  it('reconnects after the broker closes its connections and loses nothing', async (t) => {
    if (!(await requireService(t, 'rabbitmq'))) return;
    const source = await queue('rc-src');
    const sink = await queue('rc-sink');
    const got = await collect(sink);
    // A slow pipeline keeps deliveries unacked and publishes unconfirmed while the kill happens.
    const s = await start(
      `${inputYaml(source)}pipeline:
  threads: 1
  processors:
    - sleep:
        duration: 20ms
output:
  label: out_${run}
  amqp_0_9:
    urls: [ ${URL} ]
    exchange: ''
    key: ${sink}
`,
    );
    for (let i = 0; i < 10; i++) channel.sendToQueue(source, Buffer.from(`a${i}`));
    await waitFor(() => got.length >= 10, { message: 'first 10' });
    // Kill both connections while messages are in flight (unacked deliveries, unconfirmed
    // publishes): publishing goes on until rabbitmqctl (slow to start on a loaded machine) is done.
    const pids = await connectionPids(`nekton input in_${run}`, `nekton output out_${run}`);
    let closed = false;
    const closing = Promise.all(pids.map(closeConnection)).finally(() => {
      closed = true;
    });
    let published = 0;
    while (!closed) {
      channel.sendToQueue(source, Buffer.from(`b${published++}`));
      await new Promise((r) => setTimeout(r, 10));
    }
    await closing;
    const atKill = got.length;
    for (let i = 0; i < 10; i++) channel.sendToQueue(source, Buffer.from(`c${i}`));
    const total = 20 + published;
    const bodies = () => new Set(got.map((m) => m.content.toString()));
    await waitFor(() => bodies().size >= total, {
      message: `all ${total} after the reconnect`,
      timeoutMs: 30_000,
    });
    assert.equal(bodies().size, total);
    assert.ok(
      atKill < 10 + published,
      `the connections were closed with messages in flight (${atKill} of ${10 + published} through)`,
    );
    await waitFor(() => s.stream.isReady(), { message: 'ready again' });
    await stop(s);
    assert.equal((await channel.checkQueue(source)).messageCount, 0);
  });

  it('an idle output reports its closed connection and reconnects without a write', async (t) => {
    if (!(await requireService(t, 'rabbitmq'))) return;
    const sink = await queue('idle-sink');
    // The input never produces anything, so the output never writes.
    const s = await start(`input:
  generate:
    interval: 1h
    mapping: root = "never"
output:
  label: idle_${run}
  amqp_0_9:
    urls: [ ${URL} ]
    exchange: ''
    key: ${sink}
`);
    const output = () => s.stream.statuses().find((st) => st.path.startsWith('output'));
    await waitFor(() => output()?.connected === true, { message: 'the output connected' });
    const [pid] = await connectionPids(`nekton output idle_${run}`);
    const seen: boolean[] = [];
    const watching = setInterval(() => seen.push(output()?.connected === true), 5);
    try {
      await closeConnection(pid!);
      // The outage shows (briefly: the engine redials at once) and the output comes back by itself.
      await waitFor(() => seen.includes(false), { message: 'the outage noticed', timeoutMs: 20_000 });
      await waitFor(() => output()?.connected === true, { message: 'connected again', timeoutMs: 20_000 });
    } finally {
      clearInterval(watching);
    }
    const [again] = await connectionPids(`nekton output idle_${run}`);
    assert.notEqual(again, pid, 'no new connection was opened');
    await stop(s);
  });

  it('reports the broker going away on /ready and reconnects once it is back (vhost deleted, recreated)', async (t) => {
    if (!(await requireService(t, 'rabbitmq'))) return;
    // A vhost of this test stands in for a broker restart: deleting it closes every connection
    // into it and refuses new ones until it is created again, leaving the shared broker alone.
    const vhost = name('vh');
    const ctl = (...args: string[]) => promisify(execFile)('rabbitmqctl', args);
    const createVhost = async () => {
      await ctl('add_vhost', vhost);
      await ctl('set_permissions', '-p', vhost, 'guest', '.*', '.*', '.*');
    };
    const url = `${URL}${vhost}`;
    await createVhost();
    let vh: ChannelModel | null = null;
    try {
      const s = await start(
        `input:
  amqp_0_9:
    urls: [ ${url} ]
    queue: work
    queue_declare: { enabled: true }
output:
  amqp_0_9:
    urls: [ ${url} ]
    exchange: ''
    key: sink
`,
      );
      await waitFor(() => s.stream.isReady(), { message: 'ready', timeoutMs: 20_000 });
      await ctl('delete_vhost', vhost);
      const [input] = await waitFor(
        () => {
          const st = s.stream.statuses();
          return st[0] && !st[0].connected && st[0].error ? st : null;
        },
        { message: 'the outage on the input status' },
      );
      assert.equal(s.stream.isReady(), false);
      assert.ok(s.stream.active, 'still running, retrying');
      assert.match(input?.error ?? '', new RegExp(`127\\.0\\.0\\.1:5672/${vhost}`));
      assert.doesNotMatch(input?.error ?? '', /guest:guest/, 'the password is not shown');
      await createVhost();
      vh = await connect(url);
      const ch = await vh.createChannel();
      await ch.assertQueue('sink');
      // The engine's reconnect backoff reaches 10s while rabbitmqctl (slow on a loaded machine) works.
      await waitFor(() => s.stream.statuses()[0]?.connected, {
        message: 'the input connected again',
        timeoutMs: 30_000,
      });
      for (let i = 0; i < 10; i++) ch.sendToQueue('work', Buffer.from(`v${i}`));
      const got: string[] = [];
      await ch.consume('sink', (m) => m && got.push(m.content.toString()), { noAck: true });
      await waitFor(() => got.length >= 10, {
        message: '10 messages through after the reconnect',
        timeoutMs: 30_000,
      });
      assert.deepEqual(
        got.sort(),
        Array.from({ length: 10 }, (_, i) => `v${i}`),
      );
      await waitFor(() => s.stream.isReady(), { message: 'ready again' });
      await stop(s);
    } finally {
      await vh?.close().catch(() => undefined);
      await ctl('delete_vhost', vhost).catch(() => undefined);
    }
  });

  it('waits for publisher confirms and fails a message returned as unroutable (mandatory)', async (t) => {
    if (!(await requireService(t, 'rabbitmq'))) return;
    const sink = await queue('confirm-sink');
    const x = await exchange('unbound');
    const routed = await buildOutput(`input:
  stdin: {}
output:
  amqp_0_9:
    urls: [ ${URL} ]
    exchange: ''
    key: ${sink}
    priority: '\${! meta("p").or("") }'
`);
    const batch = Array.from({ length: 50 }, (_, i) => new Message(`c${i}`));
    batch[0]?.setMeta('p', '7');
    await routed.write(batch);
    // Confirmed means stored: every message is in the queue once write resolves.
    assert.equal((await channel.checkQueue(sink)).messageCount, 50);
    const first = await channel.get(sink, { noAck: true });
    assert.ok(first);
    assert.equal(first.properties.priority, 7);
    await routed.close();

    const unroutable = await buildOutput(`input:
  stdin: {}
output:
  amqp_0_9:
    urls: [ ${URL} ]
    exchange: ${x}
    key: nowhere
    mandatory: true
`);
    await assert.rejects(unroutable.write([new Message('lost?')]), /returned: 312 NO_ROUTE/);
    await unroutable.close();
  });

  it('fails a write to an exchange that does not exist as a write, not as a lost connection', async (t) => {
    if (!(await requireService(t, 'rabbitmq'))) return;
    const output = await buildOutput(`input:
  stdin: {}
output:
  amqp_0_9:
    urls: [ ${URL} ]
    exchange: ${name('no-such-exchange')}
`);
    // A NotConnectedError made the engine reconnect and publish again at once, ~20 times a second;
    // a plain error nacks the message, which is then replayed with backoff.
    for (let i = 0; i < 2; i++) {
      await assert.rejects(output.write([new Message('x')]), (err: Error) => {
        assert.match(err.message, /404 \(NOT-FOUND\)/);
        assert.notEqual(err.name, 'NotConnectedError');
        return true;
      });
    }
    await output.close();
  });

  it('reports a wrong address or wrong credentials clearly, stays up and not ready', async (t) => {
    if (!(await requireService(t, 'rabbitmq'))) return;
    const source = await queue('bad');
    const s = await start(
      `input:
  amqp_0_9:
    urls: [ amqp://guest:wrong@127.0.0.1:5672/ ]
    queue: ${source}
output:
  amqp_0_9:
    urls: [ amqp://127.0.0.1:1/ ]
    exchange: ''
`,
    );
    const statuses = await waitFor(
      () => {
        const st = s.stream.statuses();
        return st.every((x) => x.error) ? st : null;
      },
      { message: 'both errors reported' },
    );
    const [input, output] = statuses;
    assert.equal(s.stream.isReady(), false);
    assert.match(input?.error ?? '', /amqp:\/\/guest:!!!SECRET_SCRUBBED!!!@127\.0\.0\.1:5672/);
    assert.match(input?.error ?? '', /ACCESS.REFUSED/i);
    assert.doesNotMatch(input?.error ?? '', /wrong/, 'the password is not shown');
    assert.match(output?.error ?? '', /amqp:\/\/127\.0\.0\.1:1\/.*ECONNREFUSED/);
    assert.ok(s.stream.active, 'still running, retrying');
    await stop(s);
  });

  it('reports a missing queue naming the broker and the queue', async (t) => {
    if (!(await requireService(t, 'rabbitmq'))) return;
    const s = await start(`${inputYaml(name('missing'))}output:
  drop: {}
`);
    const [input] = await waitFor(() => (s.stream.statuses()[0]?.error ? s.stream.statuses() : null), {
      message: 'the input error',
    });
    assert.match(
      input?.error ?? '',
      /127\.0\.0\.1:5672.*cannot consume queue nekton-test-missing.*NOT_FOUND/,
    );
    await stop(s);
  });
});
