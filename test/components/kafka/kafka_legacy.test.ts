// The `kafka` and `redpanda` inputs and outputs without a broker (none is reachable here): lint,
// topic:partition parsing, the mapping of their fields onto the kafka_franz consumer and producer,
// Sarama's partitioners, the produce requests (stand-in client library), and an absent broker.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { parseInterpolation, parseMapping } from '../../../src/bloblang/index.js';
import { consumerConfig, type KafkaInputConfig } from '../../../src/components/inputs/kafka.js';
import { type RedpandaInputConfig, redpandaConsumerConfig } from '../../../src/components/inputs/redpanda.js';
import { KafkaFranzReader } from '../../../src/components/kafka/franz_reader.js';
import { topicSelection } from '../../../src/components/kafka/franz_topics.js';
import { fnv1a32, murmur2, saramaPartitioner } from '../../../src/components/kafka/partitioners.js';
import { parseTopicPartitions } from '../../../src/components/kafka/topic_partitions.js';
import { type KafkaOutputConfig, kafkaWriter } from '../../../src/components/outputs/kafka.js';
import { registry } from '../../../src/components/registry.js';
import { lintServiceConfig } from '../../../src/config/lint_config.js';
import { schemaProvider } from '../../../src/config/schema.js';
import { toServiceConfig } from '../../../src/config/service_config.js';
import type { FieldParseContext } from '../../../src/config/spec.js';
import { buildLineIndex, parseYaml, yamlToValue } from '../../../src/config/yaml_document.js';
import { NotConnectedError } from '../../../src/engine/errors.js';
import { Message } from '../../../src/message/message.js';
import { parsedConfigOf } from '../reference.js';
import { absentBrokerError } from './absent_broker.js';
import { fakeKafka } from './stand_in.js';

const provider = schemaProvider(registry);
const logger = pino({ level: 'silent' });

function lint(yaml: string): string[] {
  return lintServiceConfig(parseYaml(yaml, 'k.yaml'), { provider }).map((l) => `(${l.line}) ${l.message}`);
}

const parseContext: FieldParseContext = {
  mapping: (text) => parseMapping(text),
  interpolation: (text) => parseInterpolation(text),
};

/**
 * The component config of a YAML section as its factory receives it: the spec's defaults filled
 * in, then parsed by its fields (durations in ms, interpolations compiled through `context`).
 */
function configOf<T>(
  section: 'input' | 'output',
  type: string,
  body: string,
  context: FieldParseContext = parseContext,
): T {
  const other = section === 'input' ? 'output:\n  drop: {}\n' : 'input:\n  stdin: {}\n';
  const parsed = parseYaml(`${section}:\n  ${type}:\n${body}${other}`, 'k.yaml');
  const config = toServiceConfig(yamlToValue(parsed), { provider, lines: buildLineIndex(parsed) });
  const component = config.stream?.[section] as { config: Record<string, unknown> } | undefined;
  const spec = registry.get(section, type);
  if (!component || !spec) throw new Error('no stream sections');
  return parsedConfigOf(spec.fields, context, component.config) as T;
}

/** A Bloblang interpolation `${! expr }`, spelled so that it is not read as a JavaScript template. */
const bl = (expr: string) => ['$', '{! ', expr, ' }'].join('');

interface SentRecord {
  topic: string;
  key?: Buffer;
  value: Buffer;
  partition?: number;
  headers: Map<Buffer, Buffer>;
}

const headersOf = (r: SentRecord) =>
  Object.fromEntries([...r.headers].map(([k, v]) => [k.toString(), v.toString()]));

describe('kafka topics: names and explicit partitions', () => {
  it('parses names, topic:partition, topic:low-high and comma-separated entries', () => {
    const parsed = parseTopicPartitions(['a, b', 'c:2', 'd:0-3,c:0', 'c:2']);
    assert.deepEqual(parsed.balanced, ['a', 'b']);
    assert.deepEqual(Object.fromEntries(parsed.explicit), { c: [0, 2], d: [0, 1, 2, 3] });
  });

  it('refuses a partition that is not a number or range, a reversed range and a huge one', () => {
    assert.throws(
      () => parseTopicPartitions(['foo:x']),
      /topics: foo:x: x is not a partition number or range/,
    );
    assert.throws(() => parseTopicPartitions(['foo:3-1']), /the range 3-1 ends before it starts/);
    assert.throws(() => parseTopicPartitions([':1']), /names no topic before the colon/);
    assert.throws(() => parseTopicPartitions(['foo:0-999999999']), /spans more than 100000 partitions/);
  });
});

describe('kafka input (no broker)', () => {
  it('lints a Benthos kafka config clean', () => {
    assert.deepEqual(
      lint(`input:
  kafka:
    addresses: [ "localhost:9092,localhost:9093" ]
    topics: [ orders ]
    consumer_group: g
    target_version: 2.1.0
    start_from_oldest: false
    group:
      session_timeout: 20s
    sasl:
      mechanism: PLAIN
      user: u
      password: p
output:
  kafka:
    addresses: [ localhost:9092 ]
    topic: out
    key: ${bl('@kafka_key')}
    static_headers:
      source: nekton
    metadata:
      exclude_prefixes: [ kafka_ ]
`),
      [],
    );
  });

  it('refuses at lint what nekton cannot honour, and what the reference refuses, with its words', () => {
    const input = (body: string) =>
      lint(`input:\n  kafka:\n    addresses: [ localhost:9092 ]\n${body}output:\n  drop: {}\n`);
    assert.match(
      input('    topics: [ foo:0-1 ]\n    consumer_group: g\n').join('\n'),
      /explicit topic partitions \(foo: 0,1\) are not supported by nekton/,
    );
    assert.match(
      input('    topics: [ foo, bar:1 ]\n').join('\n'),
      /not currently possible to include balanced and explicit partition topics/,
    );
    assert.match(
      input('    topics: [ foo ]\n').join('\n'),
      /a consumer group must be specified when consuming balanced topics/,
    );
    assert.match(
      input('    topics: []\n    consumer_group: g\n').join('\n'),
      /must specify at least one topic/,
    );
    assert.match(input('    topics: [ foo:z ]\n').join('\n'), /z is not a partition number or range/);
    assert.match(
      input(
        '    topics: [ foo ]\n    consumer_group: g\n    sasl:\n      mechanism: OAUTHBEARER\n      token_cache: c\n',
      ).join('\n'),
      /sasl.token_cache and sasl.token_key are not supported by nekton/,
    );
    assert.match(
      input('    topics: [ foo ]\n    consumer_group: g\n    target_version: latest\n').join('\n'),
      /target_version: latest is not a Kafka version/,
    );
  });

  it('maps its fields onto the kafka_franz consumer (addresses, group timings, start, SASL)', () => {
    const config = configOf<KafkaInputConfig>(
      'input',
      'kafka',
      '    addresses: [ "a:9092,b:9092" ]\n    topics: [ "x,y" ]\n    consumer_group: g\n    start_from_oldest: false\n    checkpoint_limit: 7\n    commit_period: 2s\n    group:\n      session_timeout: 20s\n    sasl:\n      mechanism: SCRAM-SHA-256\n      user: u\n      password: p\n',
    );
    const franz = consumerConfig(config);
    assert.deepEqual(franz.seed_brokers, ['a:9092,b:9092']);
    assert.deepEqual(franz.topics, ['x', 'y']);
    assert.equal(franz.consumer_group, 'g');
    assert.equal(franz.client_id, 'benthos');
    assert.equal(franz.start_offset, 'latest');
    assert.equal(franz.checkpoint_limit, 7);
    // The mapping targets the parsed kafka_franz config: durations in ms (were '2s', '20s', '3s', '60s').
    assert.equal(franz.commit_period, 2000);
    assert.deepEqual(
      [franz.session_timeout, franz.heartbeat_interval, franz.rebalance_timeout],
      [20_000, 3000, 60_000],
    );
    assert.deepEqual(franz.sasl, [{ mechanism: 'SCRAM-SHA-256', username: 'u', password: 'p', token: '' }]);
    assert.deepEqual(topicSelection(franz, 'kafka').names, ['x', 'y']);
  });

  it('consumes through the shared reader: group options, metadata, commits after delivery', async () => {
    const kafka = fakeKafka();
    const franz = consumerConfig(
      configOf<KafkaInputConfig>(
        'input',
        'kafka',
        '    addresses: [ 127.0.0.1:9092 ]\n    topics: [ t ]\n    consumer_group: g\n',
      ),
    );
    const reader = new KafkaFranzReader(
      franz,
      topicSelection(franz, 'kafka'),
      logger,
      async () => kafka.module,
      'kafka',
    );
    await reader.connect();
    const options = kafka.consumerOptions[0] as Record<string, unknown>;
    assert.equal(options.groupId, 'g');
    assert.equal(options.sessionTimeout, 10_000);
    assert.equal(options.rebalanceTimeout, 60_000);
    assert.deepEqual((kafka.consumeOptions[0] as { topics: string[] }).topics, ['t']);
    kafka.streams[0]?.push('t', 0, 5);
    const txn = await reader.read();
    assert.equal(txn?.batch[0]?.getMeta('kafka_offset'), 5);
    assert.equal(txn?.batch[0]?.getMeta('kafka_topic'), 't');
    await txn?.ack(null);
    await reader.commitDelivered();
    assert.deepEqual(kafka.commits, ['t/0@6']);
    await reader.close();
  });

  it('an absent broker is reported with its address and "kafka", not ready, without a crash', async () => {
    const { port, error, connected } = await absentBrokerError(
      (p) => `  kafka:\n    addresses: [ 127.0.0.1:${p} ]\n    topics: [ orders ]\n    consumer_group: g\n`,
    );
    assert.equal(connected, false);
    assert.match(error, new RegExp(`kafka: seed brokers 127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`));
  });
});

describe('Sarama partitioners of the kafka output', () => {
  it('hash as Sarama and the Java client do', () => {
    // Known values: FNV-1a of "a"; Kafka's own test vector for murmur2("21").
    assert.equal(fnv1a32(Buffer.from('a')), 0xe40c292c);
    assert.equal(murmur2(Buffer.from('21')) | 0, -973932308);
    const fnv = saramaPartitioner('fnv1a_hash');
    const key = Buffer.from('customer-1');
    assert.equal(fnv?.({ topic: 't', key }), Math.abs(fnv1a32(key) | 0));
    assert.equal(saramaPartitioner('murmur2_hash')?.({ topic: 't', key: Buffer.from('21') }), 973932308);
    assert.equal(saramaPartitioner('manual'), undefined);
  });

  it('round_robin counts per topic; a keyless record gets a non-negative random partition', () => {
    const rr = saramaPartitioner('round_robin');
    assert.deepEqual(
      [rr?.({ topic: 'a' }), rr?.({ topic: 'a' }), rr?.({ topic: 'b' }), rr?.({ topic: 'a' })],
      [0, 1, 0, 2],
    );
    const p = saramaPartitioner('fnv1a_hash')?.({ topic: 't' }) ?? -1;
    assert.ok(Number.isInteger(p) && p >= 0);
  });
});

describe('kafka output (stand-in client library)', () => {
  async function connected(body: string) {
    const kafka = fakeKafka();
    const config = configOf<KafkaOutputConfig>(
      'output',
      'kafka',
      `    addresses: [ 127.0.0.1:9092 ]\n${body}`,
    );
    const writer = kafkaWriter(config, async () => kafka.module);
    await writer.connect();
    return { kafka, writer };
  }

  it('refuses at lint the manual partitioner without a partition, custom topic creation and idempotence without ack_replicas', () => {
    const output = (body: string) =>
      lint(
        `input:\n  stdin: {}\noutput:\n  kafka:\n    addresses: [ localhost:9092 ]\n    topic: t\n${body}`,
      );
    assert.match(
      output('    partitioner: manual\n').join('\n'),
      /partition field required for 'manual' partitioner/,
    );
    assert.match(
      output('    partition: "1"\n').join('\n'),
      /partition field can only be specified for 'manual' partitioner/,
    );
    assert.match(
      output('    custom_topic_creation:\n      enabled: true\n').join('\n'),
      /custom_topic_creation is not supported by nekton/,
    );
    assert.match(output('    idempotent_write: true\n').join('\n'), /idempotent_write requires ack_replicas/);
    assert.deepEqual(output('    idempotent_write: true\n    ack_replicas: true\n'), []);
  });

  it('sends every metadata entry not excluded plus static headers, with the leader acks and fnv1a partitioner', async () => {
    const { kafka, writer } = await connected(
      `    topic: ${bl('json("t")')}\n    key: ${bl('json("k")')}\n    static_headers:\n      source: nekton\n    metadata:\n      exclude_prefixes: [ kafka_ ]\n`,
    );
    const options = kafka.producerOptions[0] as Record<string, unknown>;
    assert.equal(options.acks, 1, 'ack_replicas: false waits for the leader only');
    assert.equal(options.clientId, 'benthos');
    assert.equal(typeof options.partitioner, 'function', 'Sarama fnv1a_hash, not the library default');
    const msg = new Message('{"t":"orders","k":"c1"}');
    msg.setMeta('kafka_key', 'old');
    msg.setMeta('trace', 'x');
    await writer.write([msg]);
    const record = kafka.sends[0]?.messages[0] as SentRecord;
    assert.equal(record.topic, 'orders');
    assert.equal(record.key?.toString(), 'c1');
    assert.deepEqual(headersOf(record), { trace: 'x', source: 'nekton' });
    assert.equal(kafka.sends[0]?.idempotent, false);
    await writer.close();
  });

  it('fails a batch holding a record above max_msg_bytes before sending anything', async () => {
    const { kafka, writer } = await connected(
      '    topic: t\n    max_msg_bytes: 10\n    max_retries: 1\n    backoff:\n      initial_interval: 1ms\n    metadata:\n      exclude_prefixes: [ "" ]\n',
    );
    await assert.rejects(
      writer.write([new Message('small'), new Message('far too large a message')]),
      /kafka: message 1 is 23 bytes, more than max_msg_bytes \(10\)/,
    );
    assert.equal(kafka.sends.length, 0);
    await writer.close();
  });

  it('fails a batch with a bad partition at once, without retrying it', async () => {
    const kafka = fakeKafka();
    let renders = 0;
    const countingPartitionRenders: FieldParseContext = {
      ...parseContext,
      interpolation: (text, name) => {
        const compiled = parseInterpolation(text);
        if (name !== 'partition') return compiled;
        return {
          ...compiled,
          render: (...args: Parameters<typeof compiled.render>) => {
            renders++;
            return compiled.render(...args);
          },
        } as typeof compiled;
      },
    };
    const config = configOf<KafkaOutputConfig>(
      'output',
      'kafka',
      `    addresses: [ 127.0.0.1:9092 ]\n    topic: t\n    partitioner: manual\n    partition: ${bl('json("p")')}\n    max_retries: 3\n    backoff:\n      initial_interval: 1ms\n      max_interval: 1ms\n`,
      countingPartitionRenders,
    );
    const writer = kafkaWriter(config, async () => kafka.module);
    await writer.connect();
    await assert.rejects(
      writer.write([new Message('{"p":"west"}')]),
      /kafka: partition: "west" is not a partition number/,
    );
    assert.equal(renders, 1, 'the records were built once: no retry');
    assert.equal(kafka.sends.length, 0);
    await writer.close();
  });

  it('retries a refused send up to max_retries, then fails it; a lost connection is not retried here', async () => {
    const { kafka, writer } = await connected(
      '    topic: t\n    max_retries: 2\n    backoff:\n      initial_interval: 1ms\n      max_interval: 1ms\n',
    );
    kafka.onSend = async () => {
      throw new Error('Record is too large');
    };
    await assert.rejects(writer.write([new Message('a')]), /kafka: Record is too large/);
    assert.equal(kafka.sends.length, 3, 'the first send and two retries');

    let calls = 0;
    kafka.onSend = async () => {
      calls++;
      if (calls === 1) throw new Error('Leader not available');
    };
    await writer.write([new Message('b')]);
    assert.equal(calls, 2, 'a retry that succeeds writes the batch');

    kafka.onSend = async () => {
      throw new Error('Connection to 127.0.0.1:9092 failed', { cause: new Error('read ECONNRESET') });
    };
    const before = kafka.sends.length;
    await assert.rejects(writer.write([new Message('c')]), NotConnectedError);
    assert.equal(kafka.sends.length, before + 1);
    await writer.close();
  });
});

describe('redpanda input and output (no broker)', () => {
  it('lints a config clean, and keeps the kafka_franz checks (consumer group, seed brokers)', () => {
    assert.deepEqual(
      lint(`input:
  redpanda:
    seed_brokers: [ localhost:9092 ]
    topics: [ orders ]
    consumer_group: g
output:
  redpanda:
    seed_brokers: [ localhost:9092 ]
    topic: out
`),
      [],
    );
    assert.match(
      lint(
        'input:\n  redpanda:\n    seed_brokers: [ localhost:9092 ]\n    topics: [ a ]\noutput:\n  drop: {}\n',
      ).join('\n'),
      /a consumer group is mandatory when not using explicit topic partitions/,
    );
    assert.match(
      lint(
        'input:\n  redpanda:\n    topics: [ a ]\n    consumer_group: g\noutput:\n  redpanda:\n    topic: t\n',
      ).join('\n'),
      /redpanda input: seed_brokers is not set and there is no top-level redpanda section[\s\S]*redpanda output: seed_brokers is not set/,
    );
    assert.match(
      lint(
        'input:\n  stdin: {}\noutput:\n  redpanda:\n    seed_brokers: [ a:1 ]\n    topic: t\n    partitioner: manual\n',
      ).join('\n'),
      /a partition must be specified when the partitioner is set to manual/,
    );
  });

  it('processes in order per partition by default, and in parallel with unordered_processing', () => {
    const ordered = redpandaConsumerConfig(
      configOf<RedpandaInputConfig>(
        'input',
        'redpanda',
        '    seed_brokers: [ a:9092 ]\n    topics: [ t ]\n    consumer_group: g\n',
      ),
    );
    assert.equal(ordered.checkpoint_limit, 1, 'one message per partition in flight keeps the order');
    assert.equal(ordered.batching.count, 0);
    const unordered = redpandaConsumerConfig(
      configOf<RedpandaInputConfig>(
        'input',
        'redpanda',
        '    seed_brokers: [ a:9092 ]\n    topics: [ t ]\n    consumer_group: g\n    unordered_processing:\n      enabled: true\n      checkpoint_limit: 50\n      batching:\n        count: 5\n',
      ),
    );
    assert.equal(unordered.checkpoint_limit, 50);
    assert.equal(unordered.batching.count, 5);
  });

  it('an absent broker fails the input connection naming it and "redpanda"', async () => {
    const { port, error, connected } = await absentBrokerError(
      (p) =>
        `  redpanda:\n    seed_brokers: [ 127.0.0.1:${p} ]\n    topics: [ orders ]\n    consumer_group: g\n`,
    );
    assert.equal(connected, false);
    assert.match(error, new RegExp(`redpanda: seed brokers 127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`));
  });
});
