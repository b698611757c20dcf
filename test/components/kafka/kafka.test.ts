// kafka_franz without a Kafka broker (none is reachable on this machine or on CI): the config
// and its lint, the record <-> message mapping, the commit checkpoints, and the error paths of a
// broker that is absent or does not speak Kafka, through the real client library.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { parseInterpolation, parseMapping } from '../../../src/bloblang/index.js';
import { PartitionCheckpoints } from '../../../src/components/kafka/checkpoints.js';
import type { KafkaFranzInputConfig } from '../../../src/components/kafka/franz_input_fields.js';
import { topicSelection } from '../../../src/components/kafka/franz_topics.js';
import { messageToRecord, recordToMessage } from '../../../src/components/kafka/records.js';
import { kafkaFranzOutputFields, produceSettings } from '../../../src/components/outputs/kafka_franz.js';
import { registry } from '../../../src/components/registry.js';
import { lintServiceConfig } from '../../../src/config/lint_config.js';
import { schemaProvider } from '../../../src/config/schema.js';
import { toServiceConfig } from '../../../src/config/service_config.js';
import type { FieldParseContext } from '../../../src/config/spec.js';
import { buildLineIndex, parseYaml, yamlToValue } from '../../../src/config/yaml_document.js';
import { Message } from '../../../src/message/message.js';
import { createTestEnv } from '../../helpers/context.js';
import { closedPort, waitFor } from '../../helpers/kit.js';
import { buildInput } from '../http_connectors/support.js';
import { parsedConfigOf } from '../reference.js';
import { absentBrokerError } from './absent_broker.js';

const provider = schemaProvider(registry);

function lint(yaml: string): string[] {
  return lintServiceConfig(parseYaml(yaml, 'k.yaml'), { provider }).map(
    (l) => `(${l.line},${l.column}) ${l.message}`,
  );
}

async function buildOutput(yaml: string) {
  const parsed = parseYaml(yaml, 'k.yaml');
  const config = toServiceConfig(yamlToValue(parsed), { provider, lines: buildLineIndex(parsed) });
  const testEnv = createTestEnv();
  if (!config.stream) throw new Error('no stream sections');
  return testEnv.builder.buildOutput(config.stream.output);
}

/**
 * A TCP peer on 127.0.0.1 that is not a Kafka broker: it answers each request with bytes that are
 * not Kafka and hangs up (`garbage`), hangs up at once (`hangup`), or answers with garbage and
 * then never anything more (`stuck`: the client can only give up waiting).
 */
async function notKafka(
  mode: 'garbage' | 'hangup' | 'stuck',
): Promise<{ port: number; stop(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let requests = 0;
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    if (mode === 'hangup') socket.destroy();
    socket.on('data', () => {
      requests++;
      const bytes = Buffer.from('HTTP/1.1 400 Bad Request\r\n\r\nnot kafka');
      if (mode === 'garbage') socket.end(bytes);
      else socket.write(bytes);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((r) => server.close(() => r()));
      if (mode !== 'hangup') assert.ok(requests > 0, 'the client did talk to the peer');
    },
  };
}

describe('kafka_franz (no broker: config, mapping, checkpoints, error paths)', () => {
  it('lints a Benthos config clean, and names the line of a wrong field or type', () => {
    assert.deepEqual(
      lint(`input:
  kafka_franz:
    seed_brokers: [ localhost:9092 ]
    topics: [ orders ]
    consumer_group: g
    checkpoint_limit: 100
output:
  kafka_franz:
    seed_brokers: [ localhost:9092 ]
    topic: \${! @kafka_topic }-copy
    key: \${! @kafka_key }
    metadata:
      include_prefixes: [ trace_ ]
    batching:
      count: 10
`),
      [],
    );
    const bad = lint(`input:
  kafka_franz:
    seed_brokers: [ localhost:9092 ]
    topics: [ orders ]
    checkpoint_limit: lots
    consumer_grp: g
output:
  kafka_franz:
    seed_brokers: [ localhost:9092 ]
    topic: out
    topic_name: nope
`);
    assert.deepEqual(bad, [
      '(6,1) field consumer_grp not recognised',
      '(11,1) field topic_name not recognised',
    ]);
    // A value of the wrong type is refused when the config is read, naming the field and line.
    const parsed = parseYaml(
      'input:\n  kafka_franz:\n    seed_brokers: [ localhost:9092 ]\n    topics: [ orders ]\n    checkpoint_limit: lots\noutput:\n  drop: {}\n',
      'k.yaml',
    );
    assert.throws(
      () => toServiceConfig(yamlToValue(parsed), { provider, lines: buildLineIndex(parsed) }),
      /line 5: field checkpoint_limit: expected int value, got string/,
    );
  });

  it('loads the client library only when a kafka component connects', () => {
    // A static import would make every nekton process pay for the library at start.
    const files = [
      'src/components/inputs/kafka_franz.ts',
      'src/components/outputs/kafka_franz.ts',
      ...readdirSync('src/components/kafka').map((f) => `src/components/kafka/${f}`),
    ];
    const loads: string[] = [];
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      for (const m of source.matchAll(/^import (?!type )[^;]*from '@platformatic\/kafka'/gm))
        loads.push(`${file}: ${m[0]}`);
      if (source.includes("import('@platformatic/kafka')")) loads.push(`${file}: dynamic`);
    }
    assert.deepEqual(loads, ['src/components/kafka/client.ts: dynamic']);
  });

  it('maps a record to a message with the reference metadata; multi_header keeps repeated headers', () => {
    const record = {
      key: Buffer.from('k1'),
      value: Buffer.from('{"a":1}'),
      headers: new Map<Buffer | string | undefined, Buffer | string | undefined>([
        [Buffer.from('trace_id'), Buffer.from('t1')],
      ]),
      topic: 'orders',
      partition: 3,
      offset: 42n,
      timestamp: 1_700_000_000_123n,
    };
    const msg = recordToMessage(record);
    assert.equal(msg.text(), '{"a":1}');
    assert.deepEqual(Object.fromEntries(msg.metadata()), {
      kafka_key: 'k1',
      kafka_topic: 'orders',
      kafka_partition: 3,
      kafka_offset: 42,
      kafka_timestamp_unix: 1_700_000_000,
      kafka_timestamp_ms: 1_700_000_000_123,
      kafka_tombstone_message: false,
      trace_id: 't1',
    });
    const tombstone = recordToMessage({ ...record, value: null, headers: new Map() });
    assert.equal(tombstone.getMeta('kafka_tombstone_message'), true);
    assert.equal(tombstone.text(), '');
    const repeated = new Map<Buffer | string | undefined, Buffer | string | undefined>();
    repeated.set('h', 'one');
    const multi = recordToMessage({ ...record, headers: repeated }, true);
    assert.deepEqual(multi.getMeta('h'), ['one']);
  });

  it('maps a message to a record: interpolated topic and key, manual partition, filtered headers', () => {
    const msg = new Message('{"customer":"c7","p":"2"}');
    msg.setMeta('trace_id', 't9');
    msg.setMeta('other', 'x');
    // The interpolations are written with #{ } to keep them apart from JavaScript templates.
    const interp = (text: string) => parseInterpolation(text.replaceAll('#{', '${'));
    const template = {
      topic: interp('orders-#{! json("customer") }'),
      key: interp('#{! json("customer") }'),
      partition: interp('#{! json("p") }'),
      timestampMs: parseInterpolation('1700000000123'),
      timestampSec: null,
      includeMeta: (k: string) => k.startsWith('trace_'),
    };
    const record = messageToRecord([msg], 0, template);
    assert.equal(record.topic, 'orders-c7');
    assert.equal(record.key?.toString(), 'c7');
    assert.equal(record.partition, 2);
    assert.equal(record.timestamp, 1_700_000_000_123n);
    assert.deepEqual(
      [...record.headers].map(([k, v]) => [k.toString(), v.toString()]),
      [['trace_id', 't9']],
    );
    assert.equal(record.value.toString(), '{"customer":"c7","p":"2"}');
    const badPartition = { ...template, partition: interp('#{! json("customer") }') };
    assert.throws(() => messageToRecord([msg], 0, badPartition), /partition: "c7" is not a partition number/);
  });

  it('commits a partition only up to the last offset delivered with every earlier one', () => {
    const checkpoints = new PartitionCheckpoints<string>(10);
    const ack0 = checkpoints.track('t/0', 0n, 'commit 0');
    const ack1 = checkpoints.track('t/0', 1n, 'commit 1');
    const ack2 = checkpoints.track('t/0', 2n, 'commit 2');
    const other = checkpoints.track('t/1', 7n, 'commit t1-7');
    ack2(); // out of order: nothing is committable yet
    assert.deepEqual(checkpoints.takeReady(), []);
    ack0();
    assert.deepEqual(checkpoints.takeReady(), ['commit 0']);
    ack1(); // 1 and the earlier-acked 2 now form a contiguous run
    other();
    assert.deepEqual(checkpoints.takeReady().sort(), ['commit 2', 'commit t1-7']);
    assert.deepEqual(checkpoints.takeReady(), [], 'each commit is taken once');
    // A failed delivery (never acked) holds the commit point before it.
    const held = checkpoints.track('t/0', 3n, 'commit 3');
    checkpoints.track('t/0', 4n, 'commit 4')();
    assert.deepEqual(checkpoints.takeReady(), []);
    assert.equal(checkpoints.outstanding('t/0'), 2);
    held();
    assert.deepEqual(checkpoints.takeReady(), ['commit 4']);
  });

  it('bounds the messages in flight per partition (checkpoint_limit)', async () => {
    const checkpoints = new PartitionCheckpoints<number>(2);
    const first = checkpoints.track('p', 0n, 0);
    checkpoints.track('p', 1n, 1);
    let roomed = false;
    const waiting = checkpoints.waitForRoom('p').then(() => {
      roomed = true;
    });
    await new Promise((r) => setImmediate(r));
    assert.equal(roomed, false, 'a third message waits while two are outstanding');
    first();
    await waiting;
    assert.equal(roomed, true);
  });

  it('lints field combinations with the reference messages, and refuses them at build too', () => {
    const input = (body: string) =>
      lint(`input:\n  kafka_franz:\n    seed_brokers: [ localhost:9092 ]\n${body}output:\n  drop: {}\n`);
    assert.deepEqual(input('    topics: [ a ]\n'), [
      '(3,1) a consumer group is mandatory when not using explicit topic partitions',
    ]);
    assert.deepEqual(input('    consumer_group: g\n'), [
      '(3,1) either topics or regexp_topics_include must be specified',
    ]);
    assert.deepEqual(
      input('    consumer_group: g\n    topics: [ a ]\n    regexp_topics_include: [ b.* ]\n'),
      ['(3,1) cannot specify both topics and regexp_topics_include, use one or the other'],
    );
    assert.deepEqual(
      input('    consumer_group: g\n    topics: [ a ]\n    regexp_topics_exclude: [ b.* ]\n'),
      [
        '(3,1) regexp_topics_exclude can only be used when regexp_topics is set to true or regexp_topics_include is specified',
      ],
    );
    assert.deepEqual(input('    topics: [ "a:0" ]\n'), [
      '(3,1) explicit topic partitions (a:0) are not supported by nekton',
    ]);
    assert.deepEqual(input('    consumer_group: g\n    regexp_topics_include: [ "logs-.*" ]\n'), []);

    const output = (body: string) =>
      lint(
        `input:\n  stdin: {}\noutput:\n  kafka_franz:\n    seed_brokers: [ localhost:9092 ]\n    topic: t\n${body}`,
      );
    assert.deepEqual(output('    partitioner: manual\n'), [
      '(5,1) a partition must be specified when the partitioner is set to manual',
    ]);
    assert.deepEqual(output('    partition: "1"\n'), [
      '(5,1) a partition cannot be specified unless the partitioner is set to manual',
    ]);
    assert.deepEqual(output('    timestamp: "1"\n    timestamp_ms: "1000"\n'), [
      '(5,1) both timestamp and timestamp_ms cannot be specified simultaneously',
    ]);
    assert.deepEqual(output('    acks: leader\n'), ['(5,1) idempotent_write requires acks to be set to all']);
    assert.deepEqual(output('    max_in_flight_requests: 5\n'), [
      '(5,1) idempotent_write requires max_in_flight_requests to be 1, set idempotent_write to false to use higher values',
    ]);
    assert.deepEqual(
      output('    acks: leader\n    idempotent_write: false\n    max_in_flight_requests: 5\n'),
      [],
    );

    // The producer settings of a config built through the spec (defaults: acks all, idempotent).
    const parseContext: FieldParseContext = {
      mapping: (text) => parseMapping(text),
      interpolation: (text) => parseInterpolation(text),
    };
    const settingsOf = (given: Record<string, unknown>) =>
      produceSettings(
        parsedConfigOf(kafkaFranzOutputFields, parseContext, {
          seed_brokers: ['localhost:9092'],
          topic: 't',
          ...given,
        }),
      );
    const base = {
      acks: 'all',
      idempotent_write: true,
      max_in_flight_requests: 1,
      allow_auto_topic_creation: true,
    };
    assert.equal(settingsOf(base).idempotent, true);
    assert.throws(() => settingsOf({ ...base, acks: 'leader' }), /idempotent_write requires acks/);
    assert.throws(
      () => settingsOf({ ...base, acks: 'some', idempotent_write: false }),
      /acks: some is not one of/,
    );
    assert.throws(() => settingsOf({ ...base, compression: 'brotli' }), /compression: brotli/);
    assert.throws(
      () => topicSelection({ topics: ['a'], regexp_topics: false } as KafkaFranzInputConfig),
      /kafka_franz: a consumer group is mandatory/,
    );
  });

  it('input: an absent broker is reported with its address, not ready, and retried without a crash', async () => {
    const { port, error, connected } = await absentBrokerError(
      (p) =>
        `  kafka_franz:\n    seed_brokers: [ 127.0.0.1:${p} ]\n    topics: [ orders ]\n    consumer_group: g\n`,
    );
    assert.equal(connected, false);
    assert.match(error, new RegExp(`seed brokers 127\\.0\\.0\\.1:${port}`));
    assert.match(error, /ECONNREFUSED|connect/i);
  });

  it('output: an absent broker fails the connection naming it, and the output is not connected', async () => {
    const port = await closedPort();
    const output = await buildOutput(`output:
  kafka_franz:
    seed_brokers: [ 127.0.0.1:${port} ]
    topic: out
`);
    const error = await waitFor(() => output.statuses()[0]?.error, {
      message: 'a connection error',
      timeoutMs: 15_000,
    });
    assert.equal(output.statuses()[0]?.connected, false);
    assert.match(error, new RegExp(`seed brokers 127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`));
    await output.close();
  });

  for (const mode of ['garbage', 'hangup', 'stuck'] as const) {
    it(`input and output: a peer that is not Kafka (${mode}) fails the connection naming its address`, async () => {
      const peer = await notKafka(mode);
      const address = `127\\.0\\.0\\.1:${peer.port}`;
      // `stuck` is only noticed by the request timeout: keep it short.
      const quick = '    request_timeout_overhead: 200ms\n';
      try {
        const { input } = await buildInput(`input:
  kafka_franz:
    seed_brokers: [ 127.0.0.1:${peer.port} ]
    topics: [ orders ]
    consumer_group: g
    session_timeout: 300ms
    rebalance_timeout: 300ms
    heartbeat_interval: 100ms
    fetch_max_wait: 100ms
${quick}output:
  drop: {}
`);
        void input.read();
        const inputError = await waitFor(() => input.statuses()[0]?.error, {
          message: 'an input error',
          timeoutMs: 15_000,
        });
        assert.equal(input.statuses()[0]?.connected, false);
        assert.match(inputError, new RegExp(`seed brokers ${address}: .*is this a Kafka broker`));
        await input.close();

        const output = await buildOutput(`output:
  kafka_franz:
    seed_brokers: [ 127.0.0.1:${peer.port} ]
    topic: out
    timeout: 300ms
${quick}`);
        const outputError = await waitFor(() => output.statuses()[0]?.error, {
          message: 'an output error',
          timeoutMs: 15_000,
        });
        assert.equal(output.statuses()[0]?.connected, false);
        assert.match(outputError, new RegExp(`seed brokers ${address}: .*is this a Kafka broker`));
        await output.close();
      } finally {
        await peer.stop();
      }
    });
  }
});
