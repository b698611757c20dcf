// The top-level `redpanda` section and the redpanda_common input and output that connect with it,
// without a broker (none is reachable here): lint of the section and of its users, the section's
// connection and producer settings reaching the client (stand-in library), delivery, and an
// absent broker.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { parseInterpolation, parseMapping } from '../../../src/bloblang/index.js';
import { redpandaCommonConsumer } from '../../../src/components/inputs/redpanda_common.js';
import { KafkaFranzReader } from '../../../src/components/kafka/franz_reader.js';
import { topicSelection } from '../../../src/components/kafka/franz_topics.js';
import { redpandaCommonWriter } from '../../../src/components/outputs/redpanda_common.js';
import { registry } from '../../../src/components/registry.js';
import { lintServiceConfig } from '../../../src/config/lint_config.js';
import { schemaProvider } from '../../../src/config/schema.js';
import { type ServiceConfig, toServiceConfig } from '../../../src/config/service_config.js';
import type { FieldParseContext } from '../../../src/config/spec.js';
import { buildLineIndex, parseYaml, yamlToValue } from '../../../src/config/yaml_document.js';
import type { Transaction } from '../../../src/engine/component.js';
import type { ComponentConfig } from '../../../src/engine/context.js';
import { ConfigError, NotConnectedError } from '../../../src/engine/errors.js';
import { Message } from '../../../src/message/message.js';
import { createTestEnv } from '../../helpers/context.js';
import { closedPort, waitFor } from '../../helpers/kit.js';
import { send, startService } from '../../streams/support.js';
import { parsedConfigOf } from '../reference.js';
import { absentBrokerError } from './absent_broker.js';
import { fakeKafka, settle } from './stand_in.js';

const provider = schemaProvider(registry);
const logger = pino({ level: 'silent' });

const parseContext: FieldParseContext = {
  mapping: (text) => parseMapping(text),
  interpolation: (text) => parseInterpolation(text),
};

function lint(yaml: string): string[] {
  return lintServiceConfig(parseYaml(yaml, 'r.yaml'), { provider }).map((l) => `(${l.line}) ${l.message}`);
}

function serviceConfig(yaml: string): ServiceConfig {
  const parsed = parseYaml(yaml, 'r.yaml');
  return toServiceConfig(yamlToValue(parsed), { provider, lines: buildLineIndex(parsed) });
}

const SECTION = `redpanda:
  seed_brokers: [ "127.0.0.1:9092" ]
  client_id: nekton-test
  compression: zstd
`;

const USERS = `input:
  redpanda_common:
    topics: [ orders ]
    consumer_group: g
output:
  redpanda_common:
    topic: out
    key: \${! json("id") }
`;

/** A component of a whole config as its factory sees it: parsed config, and a context holding the section. */
function component(yaml: string, section: 'input' | 'output') {
  const config = serviceConfig(yaml);
  const cc = config.stream?.[section] as ComponentConfig;
  const spec = registry.get(section, cc.type);
  if (!spec) throw new Error(`no ${section} ${cc.type}`);
  const { builder } = createTestEnv({ redpanda: config.redpanda });
  return {
    // biome-ignore lint/suspicious/noExplicitAny: the component's own parsed config type
    config: parsedConfigOf(spec.fields, parseContext, cc.config as Record<string, unknown>) as any,
    ctx: builder.context(cc),
  };
}

describe('the top-level redpanda section', () => {
  it('lints a config holding the section and redpanda_common input and output', () => {
    assert.deepEqual(lint(SECTION + USERS), []);
  });

  it('fills the reference defaults in the section', () => {
    const section = serviceConfig(SECTION + USERS).redpanda;
    assert.equal(section?.client_id, 'nekton-test');
    assert.equal(section?.acks, 'all');
    assert.equal(section?.idempotent_write, true);
    assert.equal(section?.timeout, '10s');
    assert.equal(section?.metadata_max_age, '1m');
    assert.equal(section?.logs_level, 'info');
    assert.equal(section?.max_buffered_records, 10000);
    assert.equal(serviceConfig('input:\n  stdin: {}\n').redpanda, undefined, 'no section, none made up');
  });

  it('names a bad field of the section at its line', () => {
    assert.deepEqual(lint(`${SECTION}  acks: most\n  metadata_max_age: soon\n  colour: red\n${USERS}`), [
      '(5) value most is not a valid option for this field',
      '(6) field metadata_max_age: invalid duration "soon": time: invalid duration "soon"',
      '(7) field colour not recognised',
    ]);
  });

  it('refuses redpanda_common without the section, or with a section without seed_brokers, at its line', () => {
    assert.deepEqual(lint(USERS), [
      '(2) redpanda_common input needs the top-level redpanda section with seed_brokers, which this config does not have',
      '(6) redpanda_common output needs the top-level redpanda section with seed_brokers, which this config does not have',
    ]);
    assert.deepEqual(lint(`redpanda:\n  client_id: x\n${USERS}`).length, 2);
  });

  it("lints a resource file's redpanda_common against the main config's section", () => {
    const file = parseYaml(
      'output_resources:\n  - label: out\n    redpanda_common:\n      topic: t\n',
      'res.yaml',
    );
    assert.deepEqual(lintServiceConfig(file, { provider, redpandaSection: true }), []);
    assert.deepEqual(
      lintServiceConfig(file, { provider, redpandaSection: false }).map((l) => l.line),
      [2],
      'the main config has no section',
    );
  });

  it('accepts logs_topic and status_topic, and refuses them without seed_brokers', () => {
    assert.deepEqual(lint(`${SECTION}  logs_topic: __logs\n  status_topic: __status\n${USERS}`), []);
    assert.deepEqual(lint('redpanda:\n  logs_topic: __logs\n  status_topic: __status\n'), [
      '(2) logs_topic needs seed_brokers in the redpanda section to send to',
      '(3) status_topic needs seed_brokers in the redpanda section to send to',
    ]);
  });

  it("keeps the reference's producer checks, against the section's partitioner too", () => {
    assert.deepEqual(lint(`${SECTION}  acks: leader\n${USERS}`), [
      '(2) idempotent_write requires acks to be set to all',
    ]);
    assert.deepEqual(lint(`${SECTION}  partitioner: manual\n${USERS}`), [
      '(11) a partition must be specified when the partitioner is set to manual (redpanda.partitioner)',
    ]);
    assert.deepEqual(lint(`${SECTION}${USERS}    partition: \${! 1 }\n`), [
      '(10) a partition cannot be specified unless the partitioner is set to manual (redpanda.partitioner)',
    ]);
    assert.deepEqual(lint(`${SECTION}  sasl:\n    - mechanism: AWS_MSK_IAM\n${USERS}`), [
      '(6) sasl: mechanism AWS_MSK_IAM is not supported by nekton',
    ]);
  });

  it('refuses to build redpanda_common without the section (streams mode: none in the observability config)', () => {
    const input = component(USERS, 'input');
    assert.throws(
      () => redpandaCommonConsumer(input.config, input.ctx),
      (err) =>
        err instanceof ConfigError &&
        /top-level redpanda section with seed_brokers is missing/.test(err.message),
    );
    const output = component(USERS, 'output');
    assert.throws(() => redpandaCommonWriter(output.config, output.ctx), ConfigError);
  });
});

describe('redpanda input and output without seed_brokers', () => {
  const PLAIN =
    'input:\n  redpanda:\n    topics: [ a ]\n    consumer_group: g\noutput:\n  redpanda:\n    topic: t\n';

  it('lint with the section, and without it name the missing connection at their lines', () => {
    assert.deepEqual(lint(`${SECTION}${PLAIN}`), []);
    assert.deepEqual(lint(PLAIN), [
      '(2) redpanda input: seed_brokers is not set and there is no top-level redpanda section with seed_brokers to connect with',
      '(6) redpanda output: seed_brokers is not set and there is no top-level redpanda section with seed_brokers to connect with',
    ]);
  });

  it("connect with the section's seed brokers (the input reports them when nothing listens)", async () => {
    const { port, error, connected } = await absentBrokerError(
      (p) =>
        `  redpanda:\n    topics: [ orders ]\n    consumer_group: g\nredpanda:\n  seed_brokers: [ 127.0.0.1:${p} ]\n`,
    );
    assert.equal(connected, false);
    assert.match(error, new RegExp(`redpanda: seed brokers 127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`));
  });
});

const offsetOf = (txn: Transaction | null | undefined) => txn?.batch[0]?.getMeta('kafka_offset');

describe('redpanda_common input (client library stand-in)', () => {
  it('joins with the section connection and its own group, one message per partition in flight, committing only what was acknowledged', async () => {
    const kafka = fakeKafka();
    const { config, ctx } = component(SECTION + USERS, 'input');
    const consumer = redpandaCommonConsumer(config, ctx);
    const reader = new KafkaFranzReader(
      consumer,
      topicSelection(consumer, 'redpanda_common'),
      logger,
      async () => kafka.module,
      'redpanda_common',
    );
    await reader.connect();
    assert.deepEqual(kafka.consumerOptions[0]?.bootstrapBrokers, ['127.0.0.1:9092']);
    assert.equal(kafka.consumerOptions[0]?.clientId, 'nekton-test');
    assert.equal(kafka.consumerOptions[0]?.groupId, 'g');
    const stream = kafka.streams.at(-1);
    if (!stream) throw new Error('connect did not consume');
    stream.push('orders', 0, 0);
    stream.push('orders', 0, 1);
    const first = await reader.read();
    assert.equal(offsetOf(first), 0);
    const second: { txn?: Transaction | null } = {};
    void reader.read().then((t) => {
      second.txn = t;
    });
    await settle();
    assert.equal(second.txn, undefined, 'in order: offset 1 waits until offset 0 was acknowledged');
    await reader.commitDelivered();
    assert.deepEqual(kafka.commits, [], 'nothing acknowledged, nothing committed');
    await first?.ack(null);
    await settle();
    assert.equal(offsetOf(second.txn), 1);
    await reader.commitDelivered();
    assert.deepEqual(kafka.commits, ['orders/0@1']);
    const replayed = second.txn as Transaction | null | undefined; // assigned by the read above
    await replayed?.ack(null);
    await reader.commitDelivered();
    assert.deepEqual(kafka.commits, ['orders/0@1', 'orders/0@2']);
    await reader.close();
  });

  it('an absent broker fails the connection naming the seed brokers and redpanda_common', async () => {
    const { port, error, connected } = await absentBrokerError(
      (p) =>
        `  redpanda_common:\n    topics: [ orders ]\n    consumer_group: g\nredpanda:\n  seed_brokers: [ 127.0.0.1:${p} ]\n`,
    );
    assert.equal(connected, false);
    assert.match(error, new RegExp(`redpanda_common: seed brokers 127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`));
  });
});

describe('redpanda_common output (client library stand-in)', () => {
  it("produces with the section's connection and producer settings; a write resolves only once the brokers acknowledged", async () => {
    const kafka = fakeKafka();
    const { config, ctx } = component(SECTION + USERS, 'output');
    const writer = redpandaCommonWriter(config, ctx, async () => kafka.module);
    await writer.connect();
    assert.deepEqual(kafka.producerOptions[0]?.bootstrapBrokers, ['127.0.0.1:9092']);
    assert.equal(kafka.producerOptions[0]?.clientId, 'nekton-test');
    assert.equal(kafka.producerOptions[0]?.compression, 'zstd');
    assert.equal(kafka.producerOptions[0]?.acks, -1);
    let acknowledge = () => {};
    kafka.onSend = () => new Promise<void>((resolve) => (acknowledge = resolve));
    const done: { written?: boolean } = {};
    const write = writer.write([new Message('{"id":"a1"}')]).then(() => {
      done.written = true;
    });
    await settle();
    assert.equal(done.written, undefined, 'not written before the brokers answered');
    const record = kafka.sends[0]?.messages[0] as { topic: string; key: Buffer; value: Buffer };
    assert.equal(record.topic, 'out');
    assert.equal(record.key.toString(), 'a1');
    assert.equal(kafka.sends[0]?.idempotent, true);
    acknowledge();
    await write;
    assert.equal(done.written, true);
    kafka.onSend = async () => {
      throw new Error('Connection to 127.0.0.1:9092 failed');
    };
    await assert.rejects(
      writer.write([new Message('b')]),
      NotConnectedError,
      'a lost connection fails the batch',
    );
    await writer.close();
  });

  it('an absent broker fails the connection naming the seed brokers and redpanda_common', async () => {
    const port = await closedPort();
    const { config, ctx } = component(
      `redpanda:\n  seed_brokers: [ 127.0.0.1:${port} ]\ninput:\n  stdin: {}\noutput:\n  redpanda_common:\n    topic: t\n`,
      'output',
    );
    const writer = redpandaCommonWriter(config, ctx);
    await assert.rejects(
      writer.connect(),
      new RegExp(`redpanda_common: seed brokers 127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`),
    );
    await writer.close();
  });
});

describe('redpanda_common in streams mode', () => {
  const stream = JSON.stringify({
    input: { generate: { mapping: 'root = "x"', count: 1 } },
    output: { redpanda_common: { topic: 't' } },
  });

  it('connects with the section of the observability config (-o)', async () => {
    const port = await closedPort();
    const service = await startService({
      observabilityYaml: `http:\n  address: 127.0.0.1:0\nlogger:\n  level: OFF\nredpanda:\n  seed_brokers: [ 127.0.0.1:${port} ]\n`,
    });
    try {
      const created = await send(service, 'POST', '/streams/rp', stream);
      assert.equal(created.status, 200, created.body);
      const failing = await waitFor(
        async () => {
          const body = (await send(service, 'GET', '/streams/rp')).body;
          return /ECONNREFUSED/.test(body) ? body : undefined;
        },
        { message: 'the connection error in the stream status', timeoutMs: 15_000 },
      );
      assert.match(failing, new RegExp(`redpanda_common: seed brokers 127\\.0\\.0\\.1:${port}`));
    } finally {
      await service.stop();
    }
  });

  it('refuses a stream using it when the observability config has no redpanda section', async () => {
    const service = await startService();
    try {
      const refused = await send(service, 'POST', '/streams/rp', stream);
      assert.equal(refused.status, 400, refused.body);
      assert.match(
        refused.body,
        /redpanda_common output needs the top-level redpanda section with seed_brokers, which this config does not have/,
      );
    } finally {
      await service.stop();
    }
  });
});
