// The amqp_1 input and output against the local RabbitMQ's AMQP 1.0 plugin: round trip through
// the engine with properties, annotations and application properties; settlement (accept after
// delivery, release → redelivery); writes the broker refuses; a connection cut mid-stream;
// wrong credentials; clean stop.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Connection } from 'rhea';
import { Message } from '../../../src/message/message.js';
import { requireService, TcpProxy, waitFor } from '../../helpers/kit.js';
import { AMQP1_HOST, bodyText, collect, data, openClient, sendAll } from './amqp_1_client.js';
import { messagesIn, RabbitFixtures } from './rabbitmq.js';
import { buildOutput, type RunningStream, startStream } from './stream_yaml.js';

const URL = 'amqp://guest:guest@127.0.0.1:5672/';
const run = randomBytes(4).toString('hex');
const name = (what: string) => `nekton-test-amqp1-${what}-${run}`;
const at = (q: string) => `/amq/queue/${q}`;

let rabbit: RabbitFixtures | null = null;
let client: Connection | null = null;

describe('amqp_1 input and output (RabbitMQ AMQP 1.0)', () => {
  let streams: RunningStream[] = [];

  before(async () => {
    rabbit = await RabbitFixtures.open(name);
    if (rabbit) client = await openClient().catch(() => null);
  });

  after(async () => {
    for (const s of streams) await s.stop();
    client?.close();
    await rabbit?.close();
  });

  const queue = (what: string, args: Record<string, unknown> = {}) =>
    (rabbit as RabbitFixtures).queue(what, args);
  const conn = () => client as Connection;

  async function start(yaml: string): Promise<RunningStream> {
    const s = await startStream(yaml);
    streams.push(s);
    return s;
  }

  async function stop(s: RunningStream): Promise<void> {
    await s.stop();
    streams = streams.filter((x) => x !== s);
  }

  async function drained(q: string): Promise<void> {
    await waitFor(
      async () => {
        const n = await messagesIn(q);
        return n.ready === 0 && n.unacked === 0;
      },
      { message: `${q} drained and acknowledged` },
    );
  }

  it('round-trips through the engine with properties, annotations and application properties', async (t) => {
    if (!(await requireService(t, 'rabbitmq'))) return;
    const source = await queue('src');
    const sink = await queue('sink');
    const got = collect(conn(), at(sink));
    const s = await start(`input:
  amqp_1:
    urls: [ ${URL} ]
    source_address: ${at(source)}
    read_header: true
    credit: 5
pipeline:
  processors:
    - mapping: |
        root.body = content().string()
        root.id = @amqp_message_id
        root.content_type = @amqp_content_type
        root.subject = @amqp_subject
        root.trace = @trace_id
        root.durable = @amqp_durable
        root.first = @amqp_first_acquirer
output:
  amqp_1:
    urls: [ ${URL} ]
    target_address: ${at(sink)}
    persistent: true
    application_properties_map: |
      root.kind = "order"
      root.n = this.body.length()
    message_properties_message_id: '\${! @amqp_message_id }'
    message_properties_content_type: application/json
    message_properties_subject: '\${! @amqp_subject }-out'
    message_properties_group_sequence: '7'
    metadata:
      exclude_prefixes: [ amqp_ ]
`);
    await sendAll(
      conn(),
      at(source),
      Array.from({ length: 20 }, (_, i) => ({
        body: data(`m${i}`),
        message_id: `id-${i}`,
        content_type: 'text/plain',
        subject: 'orders',
        durable: true,
        message_annotations: { 'trace-id': `t${i}`, count: i },
      })),
    );
    await waitFor(() => got.length >= 20, { message: '20 messages at the sink' });
    const first = got.find((m) => m.message_id === 'id-0');
    assert.ok(first, 'the message id is carried by message_properties_message_id');
    assert.deepEqual(JSON.parse(bodyText(first)), {
      body: 'm0',
      id: 'id-0',
      content_type: 'text/plain',
      subject: 'orders',
      trace: 't0', // a string annotation, its dash an underscore
      durable: 'true',
      first: 'true',
    });
    assert.deepEqual(first.application_properties, { kind: 'order', n: 2 });
    assert.equal(first.content_type, 'application/json');
    assert.equal(first.subject, 'orders-out');
    assert.equal(first.group_sequence, 7);
    assert.equal(first.durable, true, 'persistent');
    // Metadata travels as annotations, but for the excluded prefix; the numeric annotation was not metadata.
    assert.equal(first.message_annotations?.trace_id, 't0');
    assert.equal(first.message_annotations?.amqp_message_id, undefined);
    assert.equal(first.message_annotations?.count, undefined);
    assert.deepEqual(
      got.map((m) => JSON.parse(bodyText(m)).body).sort(),
      Array.from({ length: 20 }, (_, i) => `m${i}`).sort(),
    );
    await drained(source);
    assert.ok(s.stream.isReady());
    await stop(s);
  });

  it('sends a string body with content_type string, and ids as the reference types them', async (t) => {
    if (!(await requireService(t, 'rabbitmq'))) return;
    const sink = await queue('typed');
    const got = collect(conn(), at(sink));
    const output = await buildOutput(`input:
  stdin: {}
output:
  amqp_1:
    urls: [ ${URL} ]
    target_address: ${at(sink)}
    content_type: string
    message_properties_message_id: '\${! meta("id") }'
    message_properties_correlation_id: '42'
`);
    const uuid = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';
    const msgs = [new Message('{"a":1}'), new Message('two')];
    msgs[0]?.setMeta('id', uuid);
    msgs[1]?.setMeta('id', '12345');
    await output.write(msgs);
    await waitFor(() => got.length >= 2, { message: 'both messages' });
    assert.equal(got[0]?.body, '{"a":1}', 'an AMQP string value, not a data section');
    assert.ok(
      Buffer.isBuffer(got[0]?.message_id) && got[0].message_id.toString('hex') === uuid.replaceAll('-', ''),
    );
    assert.equal(got[1]?.message_id, 12345, 'a numeric id is sent as a ulong');
    assert.equal(got[1]?.correlation_id, 42);
    await output.close();
  });

  it('releases a failed message so the broker delivers it again, and accepts it once delivered', async (t) => {
    if (!(await requireService(t, 'rabbitmq'))) return;
    const source = await queue('nack-src');
    const sink = await queue('nack-sink');
    const got = collect(conn(), at(sink));
    // The first delivery of each message is refused by the output; the redelivery goes through.
    const s = await start(`input:
  amqp_1:
    urls: [ ${URL} ]
    source_address: ${at(source)}
    read_header: true
output:
  switch:
    cases:
      - check: '@amqp_first_acquirer == "true"'
        output:
          reject: 'first attempt fails'
      - output:
          amqp_1:
            urls: [ ${URL} ]
            target_address: ${at(sink)}
`);
    await sendAll(
      conn(),
      at(source),
      Array.from({ length: 5 }, (_, i) => ({ body: data(`r${i}`) })),
    );
    await waitFor(() => got.length >= 5, { message: '5 redelivered messages at the sink' });
    assert.deepEqual(got.map(bodyText).sort(), ['r0', 'r1', 'r2', 'r3', 'r4']);
    assert.ok(
      got.every((m) => m.message_annotations?.amqp_first_acquirer === 'false'),
      'each went through on its redelivery',
    );
    await drained(source);
    await stop(s);
  });

  it('fails a write the broker refuses, as a write (not a lost connection), and sends the next', async (t) => {
    if (!(await requireService(t, 'rabbitmq'))) return;
    const sink = await queue('refused');
    const output = await buildOutput(`input:
  stdin: {}
output:
  amqp_1:
    urls: [ ${URL} ]
    target_address: ${at(sink)}
    message_properties_user_id: '\${! meta("user").or("") }'
`);
    // RabbitMQ refuses a user-id that is not the connection's by ending the session.
    const bad = new Message('impostor');
    bad.setMeta('user', 'mallory');
    await assert.rejects(output.write([bad]), (err: Error) => {
      assert.match(err.message, /precondition-failed.*user_id property set to 'mallory'/);
      assert.notEqual(err.name, 'NotConnectedError');
      return true;
    });
    assert.equal((await messagesIn(sink)).ready, 0, 'nothing stored');
    // The output reconnects and sends what the broker takes.
    await output.write([new Message('fine')]);
    assert.equal((await messagesIn(sink)).ready, 1, 'accepted means stored');
    await output.close();
  });

  it('keeps a refused message at its source: nothing is acknowledged', async (t) => {
    if (!(await requireService(t, 'rabbitmq'))) return;
    const source = await queue('refused-src');
    const sink = await queue('refused-sink');
    const s = await start(`input:
  amqp_1:
    urls: [ ${URL} ]
    source_address: ${at(source)}
output:
  amqp_1:
    urls: [ ${URL} ]
    target_address: ${at(sink)}
    message_properties_user_id: mallory
`);
    await sendAll(conn(), at(source), [{ body: data('keep me') }]);
    await waitFor(
      () =>
        /precondition-failed/.test(
          s.stream.statuses().find((st) => st.path.startsWith('output'))?.error ?? '',
        ),
      { message: 'the refusal on the output status' },
    );
    await stop(s);
    const left = await messagesIn(source);
    assert.equal(left.ready + left.unacked, 1, 'the message is still at its source');
    assert.equal((await messagesIn(sink)).ready, 0);
  });

  it('reports an address the broker refuses on the status, naming it', async (t) => {
    if (!(await requireService(t, 'rabbitmq'))) return;
    const s = await start(`input:
  amqp_1:
    urls: [ ${URL} ]
    source_address: ${at(name('missing'))}
output:
  amqp_1:
    urls: [ ${URL} ]
    target_address: /exchange/${name('no-exchange')}/key
`);
    const [input, output] = await waitFor(
      () => {
        const st = s.stream.statuses();
        return st.length === 2 && st.every((x) => x.error) ? st : null;
      },
      { message: 'both errors reported' },
    );
    assert.match(
      input?.error ?? '',
      new RegExp(`cannot consume from /amq/queue/${name('missing')}: amqp:not-found`),
    );
    assert.match(
      output?.error ?? '',
      new RegExp(`cannot send to /exchange/${name('no-exchange')}/key: amqp:not-found`),
    );
    assert.equal(s.stream.isReady(), false);
    await stop(s);
  });

  it('reconnects after the connection is cut mid-stream, reporting the outage, and loses nothing', async (t) => {
    if (!(await requireService(t, 'rabbitmq'))) return;
    const source = await queue('cut-src');
    const sink = await queue('cut-sink');
    const got = collect(conn(), at(sink));
    const proxy = await TcpProxy.start(AMQP1_HOST);
    const via = `amqp://guest:guest@127.0.0.1:${proxy.port}/`;
    try {
      // A slow pipeline keeps deliveries unsettled and sends unconfirmed when the cut happens.
      const s = await start(`input:
  amqp_1:
    urls: [ ${via} ]
    source_address: ${at(source)}
    credit: 4
pipeline:
  threads: 1
  processors:
    - sleep:
        duration: 20ms
output:
  amqp_1:
    urls: [ ${via} ]
    target_address: ${at(sink)}
`);
      await sendAll(
        conn(),
        at(source),
        Array.from({ length: 30 }, (_, i) => ({ body: data(`a${i}`) })),
      );
      await waitFor(() => got.length >= 5, { message: 'the first messages through' });
      await proxy.cut();
      const atCut = got.length;
      const [input] = await waitFor(
        () => {
          const st = s.stream.statuses();
          return st[0] && !st[0].connected ? st : null;
        },
        { message: 'the input reports the outage' },
      );
      assert.equal(s.stream.isReady(), false, '/ready says not connected');
      assert.match(input?.error ?? '', new RegExp(`127\\.0\\.0\\.1:${proxy.port}`));
      assert.doesNotMatch(input?.error ?? '', /guest:guest/, 'the password is not shown');
      await sendAll(
        conn(),
        at(source),
        Array.from({ length: 10 }, (_, i) => ({ body: data(`b${i}`) })),
      );
      await proxy.resume();
      const bodies = () => new Set(got.map(bodyText));
      await waitFor(() => bodies().size >= 40, { message: 'all 40 after the reconnect', timeoutMs: 30_000 });
      assert.ok(atCut < 30, `the cut happened with messages in flight (${atCut} of 30 through)`);
      await waitFor(() => s.stream.isReady(), { message: 'ready again', timeoutMs: 30_000 });
      await drained(source);
      await stop(s);
    } finally {
      await proxy.cut();
    }
  });

  it('reports wrong credentials naming the URL or the sasl fields, never the password', async (t) => {
    if (!(await requireService(t, 'rabbitmq'))) return;
    const source = await queue('auth');
    const s = await start(`input:
  amqp_1:
    urls: [ amqp://guest:wrongpass@127.0.0.1:5672/ ]
    source_address: ${at(source)}
output:
  amqp_1:
    urls: [ amqp://127.0.0.1:5672/ ]
    target_address: ${at(source)}
    sasl:
      mechanism: plain
      user: guest
      password: alsowrong
`);
    const [input, output] = await waitFor(
      () => {
        const st = s.stream.statuses();
        return st.length === 2 && st.every((x) => x.error) ? st : null;
      },
      { message: 'both errors reported' },
    );
    assert.match(
      input?.error ?? '',
      /amqp:\/\/guest:!!!SECRET_SCRUBBED!!!@127\.0\.0\.1:5672\/: authentication failed/,
    );
    assert.match(
      output?.error ?? '',
      /amqp:\/\/127\.0\.0\.1:5672\/: authentication failed.*sasl\.user, sasl\.password/,
    );
    for (const st of [input, output]) assert.doesNotMatch(st?.error ?? '', /wrongpass|alsowrong/);
    assert.equal(s.stream.isReady(), false);
    assert.ok(s.stream.active, 'still running, retrying');
    await stop(s);
  });

  it('authenticates with sasl plain, anonymous, or no SASL at all', async (t) => {
    if (!(await requireService(t, 'rabbitmq'))) return;
    const sink = await queue('sasl');
    // RabbitMQ's AMQP 1.0 plugin maps anonymous and SASL-less clients to its default user.
    const modes = [
      'sasl: { mechanism: plain, user: guest, password: guest }',
      'sasl: { mechanism: anonymous }',
      'sasl: { mechanism: none }',
    ];
    for (const mode of modes) {
      const output = await buildOutput(`input:
  stdin: {}
output:
  amqp_1:
    urls: [ amqp://127.0.0.1:5672/ ]
    target_address: ${at(sink)}
    ${mode}
`);
      await output.write([new Message(mode)]);
      await output.close();
    }
    assert.equal((await messagesIn(sink)).ready, modes.length);
  });

  it('stops cleanly: the link is detached and unread messages stay queued', async (t) => {
    if (!(await requireService(t, 'rabbitmq'))) return;
    const source = await queue('stop-src');
    const sink = await queue('stop-sink');
    const s = await start(`input:
  amqp_1:
    urls: [ ${URL} ]
    source_address: ${at(source)}
output:
  amqp_1:
    urls: [ ${URL} ]
    target_address: ${at(sink)}
`);
    await sendAll(conn(), at(source), [{ body: data('one') }]);
    await waitFor(async () => (await messagesIn(sink)).ready === 1, { message: 'the first message through' });
    await stop(s);
    await s.done;
    const consumers = async () => (await rabbit!.channel.checkQueue(source)).consumerCount;
    await waitFor(async () => (await consumers()) === 0, { message: 'the receiving link detached' });
    await sendAll(conn(), at(source), [{ body: data('two') }]);
    assert.deepEqual(await messagesIn(source), { ready: 1, unacked: 0 }, 'nothing consumes after stop');
  });
});
