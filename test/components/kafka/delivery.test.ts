// The kafka_franz reader and writer against a stand-in for the client library (no broker is
// reachable here): which offsets are committed when, nacks and their replay, reconnects, and the
// produce requests a batch becomes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { parseInterpolation, parseMapping } from '../../../src/bloblang/index.js';
import {
  type KafkaFranzInputConfig,
  kafkaFranzInputFields,
} from '../../../src/components/kafka/franz_input_fields.js';
import { KafkaFranzReader } from '../../../src/components/kafka/franz_reader.js';
import { topicSelection } from '../../../src/components/kafka/franz_topics.js';
import {
  type KafkaFranzOutputConfig,
  KafkaFranzWriter,
  kafkaFranzOutputFields,
  produceSettings,
  recordTemplate,
} from '../../../src/components/outputs/kafka_franz.js';
import { registry } from '../../../src/components/registry.js';
import { schemaProvider } from '../../../src/config/schema.js';
import { toServiceConfig } from '../../../src/config/service_config.js';
import type { AnyField, FieldParseContext } from '../../../src/config/spec.js';
import { buildLineIndex, parseYaml, yamlToValue } from '../../../src/config/yaml_document.js';
import type { Transaction } from '../../../src/engine/component.js';
import { NotConnectedError } from '../../../src/engine/errors.js';
import { Message } from '../../../src/message/message.js';
import { parsedConfigOf } from '../reference.js';
import { fakeKafka, settle } from './stand_in.js';

const provider = schemaProvider(registry);
const logger = pino({ level: 'silent' });

const parseContext: FieldParseContext = {
  mapping: (text) => parseMapping(text),
  interpolation: (text) => parseInterpolation(text),
};

/**
 * The component config of a YAML section as the factory receives it: the spec's defaults filled
 * in, then parsed by its fields (durations in ms, interpolations compiled).
 */
function configOf<T>(section: 'input' | 'output', fields: readonly AnyField[], body: string): T {
  const other = section === 'input' ? 'output:\n  drop: {}\n' : 'input:\n  stdin: {}\n';
  const parsed = parseYaml(`${section}:\n  kafka_franz:\n${body}${other}`, 'k.yaml');
  const config = toServiceConfig(yamlToValue(parsed), { provider, lines: buildLineIndex(parsed) });
  const component = config.stream?.[section] as { config: Record<string, unknown> } | undefined;
  if (!component) throw new Error('no stream sections');
  return parsedConfigOf(fields, parseContext, component.config) as T;
}

function inputConfig(extra = ''): KafkaFranzInputConfig {
  return configOf<KafkaFranzInputConfig>(
    'input',
    kafkaFranzInputFields(),
    `    seed_brokers: [ "127.0.0.1:9092" ]\n    topics: [ t ]\n    consumer_group: g\n${extra}`,
  );
}

async function connectedReader(extra = '', log = logger) {
  const kafka = fakeKafka();
  const config = inputConfig(extra);
  const reader = new KafkaFranzReader(config, topicSelection(config), log, async () => kafka.module);
  await reader.connect();
  const stream = kafka.streams.at(-1);
  if (!stream) throw new Error('connect did not consume');
  return { kafka, reader, stream };
}

const offsetOf = (txn: Transaction | null) => txn?.batch[0]?.getMeta('kafka_offset');
const nack = new Error('output refused');

describe('kafka_franz input delivery (client library stand-in)', () => {
  it('joins the consumer group without autocommit, starting from the committed offsets', async () => {
    const { kafka, reader } = await connectedReader();
    assert.equal(kafka.consumerOptions[0]?.groupId, 'g');
    assert.deepEqual(kafka.consumerOptions[0]?.bootstrapBrokers, ['127.0.0.1:9092']);
    assert.ok(
      (kafka.consumerOptions[0]?.rebalanceTimeout as number) >=
        (kafka.consumerOptions[0]?.sessionTimeout as number),
      'the library refuses a rebalance timeout below the session timeout',
    );
    assert.deepEqual(kafka.consumeOptions[0], {
      topics: ['t'],
      autocommit: false,
      mode: 'committed',
      fallbackMode: 'earliest',
    });
    await reader.close();
  });

  it('maps each record to a message with the kafka_* metadata and its headers', async () => {
    const { reader, stream } = await connectedReader();
    stream.push('t', 4, 17);
    stream.push('t', 4, 18, null);
    const txn = await reader.read();
    assert.equal(txn?.batch.length, 1);
    const msg = txn?.batch[0] as Message;
    assert.equal(msg.text(), 'm17');
    assert.deepEqual(Object.fromEntries(msg.metadata()), {
      kafka_key: 'k17',
      kafka_topic: 't',
      kafka_partition: 4,
      kafka_offset: 17,
      kafka_timestamp_unix: 1_700_000_000,
      kafka_timestamp_ms: 1_700_000_000_017,
      kafka_tombstone_message: false,
      h: 'v17',
    });
    const tombstone = await reader.read();
    assert.equal(tombstone?.batch[0]?.getMeta('kafka_tombstone_message'), true);
    await reader.close();
  });

  it('commits each partition only up to the contiguous run of delivered messages', async () => {
    const { kafka, reader, stream } = await connectedReader();
    for (const offset of [0, 1, 2]) stream.push('t', 0, offset);
    stream.push('t', 1, 5);
    const [m0, m1, m2, other] = [
      await reader.read(),
      await reader.read(),
      await reader.read(),
      await reader.read(),
    ];
    assert.deepEqual([m0, m1, m2, other].map(offsetOf), [0, 1, 2, 5]);

    await m2?.ack(null);
    await reader.commitDelivered();
    assert.deepEqual(kafka.commits, [], 'offset 2 alone is not committed while 0 and 1 are out');
    await m0?.ack(null);
    await other?.ack(null);
    await reader.commitDelivered();
    assert.deepEqual(kafka.commits.sort(), ['t/0@1', 't/1@6']);
    await m1?.ack(null);
    await reader.commitDelivered();
    assert.deepEqual(kafka.commits.slice(2), ['t/0@3'], '1 closes the gap: the commit jumps past 2');
    await reader.commitDelivered();
    assert.equal(kafka.commits.length, 3, 'nothing is committed twice');
    await reader.close();
  });

  it('hands a nacked message out again before newer ones and commits nothing past it until delivered', async () => {
    const { kafka, reader, stream } = await connectedReader();
    for (const offset of [0, 1, 2]) stream.push('t', 0, offset);
    const first = await reader.read();
    const second = await reader.read();
    await first?.ack(nack);
    await second?.ack(null);
    await reader.commitDelivered();
    assert.deepEqual(kafka.commits, [], 'the nacked offset 0 holds the commit point');
    const again = await reader.read();
    assert.equal(offsetOf(again), 0, 'the replay comes before offset 2');
    assert.equal(again?.batch[0]?.text(), 'm0');
    await again?.ack(null);
    await reader.commitDelivered();
    assert.deepEqual(kafka.commits, ['t/0@2']);
    assert.equal(offsetOf(await reader.read()), 2);
    await reader.close();
  });

  it('wakes a read waiting on a quiet topic when a nack comes in, without losing the next record', async () => {
    const { reader, stream } = await connectedReader();
    stream.push('t', 0, 0);
    const first = await reader.read();
    const woken: { txn?: Transaction | null } = {};
    const pending = reader.read().then((t) => {
      woken.txn = t;
    });
    await settle();
    assert.equal(woken.txn, undefined, 'nothing to read yet');
    await first?.ack(nack);
    await settle();
    assert.equal(offsetOf(woken.txn ?? null), 0, 'the replay is handed out at once');
    await pending;
    stream.push('t', 0, 1);
    assert.equal(offsetOf(await reader.read()), 1, 'the record the overtaken read asked for still arrives');
    await reader.close();
  });

  it('does not deadlock when the partition is full (checkpoint_limit) and the message holding it is nacked', async () => {
    const { kafka, reader, stream } = await connectedReader('    checkpoint_limit: 2\n');
    for (const offset of [0, 1, 2]) stream.push('t', 0, offset);
    const m0 = await reader.read();
    const m1 = await reader.read();
    const third: { txn?: Transaction | null } = {};
    void reader.read().then((t) => {
      third.txn = t;
    });
    await settle();
    assert.equal(third.txn, undefined, 'two messages out: offset 2 waits');
    await m0?.ack(nack);
    await settle();
    assert.equal(
      offsetOf(third.txn ?? null),
      0,
      'the nacked message comes again although the partition is full',
    );
    const replayed = third.txn as Transaction | null | undefined; // assigned by the read above
    await replayed?.ack(null);
    await m1?.ack(null);
    assert.equal(offsetOf(await reader.read()), 2);
    await reader.commitDelivered();
    assert.deepEqual(kafka.commits, ['t/0@2']);
    await reader.close();
  });

  it('with auto_replay_nacks: false drops a nacked message and commits past it, as the reference', async () => {
    const warnings: string[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line).msg) });
    const { kafka, reader, stream } = await connectedReader('    auto_replay_nacks: false\n', log);
    stream.push('t', 0, 0);
    stream.push('t', 0, 1);
    await (await reader.read())?.ack(nack);
    assert.equal(offsetOf(await reader.read()), 1, 'no replay');
    assert.ok(
      warnings.some((w) => w.includes('dropping nacked message t/0@0') && w.includes('output refused')),
      `the drop is not logged: ${JSON.stringify(warnings)}`,
    );
    await reader.commitDelivered();
    assert.deepEqual(kafka.commits, ['t/0@1']);
    await reader.close();
  });

  it('commits what was delivered on close, and not a message that was nacked', async () => {
    const { kafka, reader, stream } = await connectedReader();
    stream.push('t', 0, 0);
    stream.push('t', 0, 1);
    await (await reader.read())?.ack(null);
    await (await reader.read())?.ack(nack);
    await reader.close();
    assert.deepEqual(kafka.commits, ['t/0@1']);
    assert.equal(stream.closed, true);
    assert.equal(kafka.closedClients, 1);
    assert.equal(await reader.read(), null, 'a closed reader reads nothing');
  });

  it('reports a broken stream as a lost connection naming the brokers, then starts afresh from the commits', async () => {
    const { kafka, reader, stream } = await connectedReader();
    stream.push('t', 0, 0);
    const delivered = await reader.read();
    stream.fail(new Error('read ECONNRESET'));
    await assert.rejects(reader.read(), (err: Error) => {
      assert.ok(err instanceof NotConnectedError, 'the engine reconnects on NotConnectedError');
      assert.match(err.message, /127\.0\.0\.1:9092: read ECONNRESET/);
      return true;
    });
    assert.equal(kafka.closedClients, 1, 'the broken consumer is closed');
    await assert.rejects(reader.read(), NotConnectedError, 'no reads until reconnected');
    await delivered?.ack(null);
    await reader.connect();
    await reader.commitDelivered();
    assert.deepEqual(kafka.commits, [], 'an ack for the old consumer commits nothing through the new one');
    const fresh = kafka.streams.at(-1);
    fresh?.push('t', 0, 0);
    const again = await reader.read();
    assert.equal(offsetOf(again), 0, 'the uncommitted message is consumed again');
    await again?.ack(null);
    await reader.commitDelivered();
    assert.deepEqual(kafka.commits, ['t/0@1']);
    await reader.close();
  });

  it('fails a connection that consume() refuses with the brokers and the reason, closing the consumer', async () => {
    const kafka = fakeKafka();
    kafka.onConnect = async () => {
      throw new Error('Cannot connect to any broker', {
        cause: new Error('connect ECONNREFUSED 127.0.0.1:9092'),
      });
    };
    const config = inputConfig();
    const reader = new KafkaFranzReader(config, topicSelection(config), logger, async () => kafka.module);
    await assert.rejects(
      reader.connect(),
      /seed brokers 127\.0\.0\.1:9092: Cannot connect to any broker \(connect ECONNREFUSED/,
    );
    assert.equal(kafka.closedClients, 1);
    await assert.rejects(reader.read(), NotConnectedError);
    await reader.close();
  });
});

function outputConfig(extra = ''): KafkaFranzOutputConfig {
  return configOf<KafkaFranzOutputConfig>(
    'output',
    kafkaFranzOutputFields,
    `    seed_brokers: [ "127.0.0.1:9092" ]\n${extra}`,
  );
}

async function connectedWriter(extra: string) {
  const kafka = fakeKafka();
  const config = outputConfig(extra);
  const writer = new KafkaFranzWriter(
    config,
    recordTemplate(config),
    produceSettings(config),
    async () => kafka.module,
  );
  await writer.connect();
  return { kafka, writer };
}

interface SentRecord {
  topic: string;
  key?: Buffer;
  value: Buffer;
  partition?: number;
  headers: Map<Buffer, Buffer>;
}

/** A Bloblang interpolation `${! expr }`, spelled so that it is not read as a JavaScript template. */
const bl = (expr: string) => ['$', '{! ', expr, ' }'].join('');

const sent = (request: { messages: unknown[] } | undefined) => (request?.messages ?? []) as SentRecord[];

const readable = (r: SentRecord) => ({
  topic: r.topic,
  key: r.key?.toString(),
  value: r.value.toString(),
  partition: r.partition,
  headers: Object.fromEntries([...r.headers].map(([k, v]) => [k.toString(), v.toString()])),
});

describe('kafka_franz output produce requests (client library stand-in)', () => {
  it('sends a batch as one request: topic, key and partition interpolated per message, chosen metadata as headers', async () => {
    const { kafka, writer } = await connectedWriter(
      [
        `    topic: orders-${bl('json("region")')}`,
        `    key: ${bl('json("customer")')}`,
        '    partitioner: manual',
        `    partition: ${bl('json("p")')}`,
        '    metadata:',
        '      include_prefixes: [ trace_ ]',
        '',
      ].join('\n'),
    );
    const eu = new Message('{"region":"eu","customer":"c1","p":0}');
    eu.setMeta('trace_id', 't1');
    eu.setMeta('internal', 'not a header');
    const us = new Message('{"region":"us","customer":"c2","p":3}');
    us.setMeta('trace_span', 7);
    await writer.write([eu, us]);
    assert.equal(kafka.sends.length, 1);
    assert.equal(kafka.sends[0]?.idempotent, true, 'acks: all produces idempotently');
    assert.deepEqual(sent(kafka.sends[0]).map(readable), [
      {
        topic: 'orders-eu',
        key: 'c1',
        value: '{"region":"eu","customer":"c1","p":0}',
        partition: 0,
        headers: { trace_id: 't1' },
      },
      {
        topic: 'orders-us',
        key: 'c2',
        value: '{"region":"us","customer":"c2","p":3}',
        partition: 3,
        headers: { trace_span: '7' },
      },
    ]);
    assert.equal(kafka.producerOptions[0]?.acks, -1);
    await writer.close();
    assert.equal(kafka.closedClients, 1);
  });

  it('sends no key, no partition and no headers unless configured', async () => {
    const { kafka, writer } = await connectedWriter(
      '    topic: plain\n    acks: leader\n    idempotent_write: false\n',
    );
    const msg = new Message('x');
    msg.setMeta('a', 'b');
    await writer.write([msg]);
    assert.deepEqual(sent(kafka.sends[0]).map(readable), [
      { topic: 'plain', key: undefined, value: 'x', partition: undefined, headers: {} },
    ]);
    assert.equal(kafka.sends[0]?.idempotent, false);
    assert.equal(kafka.producerOptions[0]?.acks, 1);
    await writer.close();
  });

  it('fails the whole batch before sending when a message has no valid partition', async () => {
    const { kafka, writer } = await connectedWriter(
      `    topic: t\n    partitioner: manual\n    partition: ${bl('json("p")')}\n`,
    );
    await assert.rejects(
      writer.write([new Message('{"p":1}'), new Message('{"p":"west"}')]),
      /partition: "west" is not a partition number/,
    );
    assert.equal(kafka.sends.length, 0);
    await writer.close();
  });

  it('turns a lost connection into NotConnectedError (reconnect), and a refusal into a failed write', async () => {
    const { kafka, writer } = await connectedWriter('    topic: t\n');
    kafka.onSend = async () => {
      throw new Error('Connection to 127.0.0.1:9092 failed', { cause: new Error('read ECONNRESET') });
    };
    await assert.rejects(writer.write([new Message('a')]), (err: Error) => {
      assert.ok(err instanceof NotConnectedError);
      assert.match(err.message, /127\.0\.0\.1:9092/);
      return true;
    });
    assert.equal(kafka.closedClients, 1, 'the producer of the lost connection is closed');
    await assert.rejects(
      writer.write([new Message('a')]),
      NotConnectedError,
      'not connected until reconnected',
    );

    await writer.connect();
    kafka.onSend = async () => {
      throw new Error('Record is too large');
    };
    await assert.rejects(writer.write([new Message('a')]), (err: Error) => {
      assert.ok(!(err instanceof NotConnectedError), 'a refusal is not a connection problem');
      assert.match(err.message, /kafka_franz: Record is too large/);
      return true;
    });
    await writer.close();
  });

  it('presumes the connection lost when a send gets no answer within `timeout`', async () => {
    const { kafka, writer } = await connectedWriter('    topic: t\n    timeout: 1ms\n');
    kafka.onSend = () => new Promise(() => undefined);
    await assert.rejects(writer.write([new Message('a')]), (err: Error) => {
      assert.ok(err instanceof NotConnectedError);
      assert.match(err.message, /no answer from the brokers within 1 ms/);
      return true;
    });
    await writer.close();
  });

  it('fails a connection the brokers refuse with their addresses and the reason', async () => {
    const kafka = fakeKafka();
    kafka.onConnect = async () => {
      throw new Error('Cannot connect to any broker', {
        cause: new Error('connect ECONNREFUSED 127.0.0.1:9092'),
      });
    };
    const config = outputConfig('    topic: t\n');
    const writer = new KafkaFranzWriter(
      config,
      recordTemplate(config),
      produceSettings(config),
      async () => kafka.module,
    );
    await assert.rejects(writer.connect(), /seed brokers 127\.0\.0\.1:9092: .*ECONNREFUSED/);
    assert.equal(kafka.closedClients, 1);
    await assert.rejects(writer.write([new Message('a')]), NotConnectedError);
    await writer.close();
  });
});
