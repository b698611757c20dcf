// `nekton lint` on the Kafka family (kafka_franz, kafka, redpanda): the mistakes that used to
// surface only when the stream started or connected (a bad duration, interpolation or mapping, an
// unsupported SASL mechanism, instance_id, a fetch size that is not a byte size) are now reported
// by lint, at the value's line or at the component's.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { registry } from '../../src/components/registry.js';
import { bloblangChecker } from '../../src/config/bloblang_check.js';
import { formatApiLint } from '../../src/config/lint.js';
import { lintStreamConfig } from '../../src/config/lint_config.js';
import { schemaProvider } from '../../src/config/schema.js';
import { parseYaml } from '../../src/config/yaml_document.js';

const lint = (text: string) =>
  lintStreamConfig(parseYaml(text), { provider: schemaProvider(registry), bloblang: bloblangChecker }).map(
    formatApiLint,
  );

/** A config whose input is the given YAML (indented under `input:`) and whose output is `drop`. */
const withInput = (input: string) => `input:\n${input}output:\n  drop: {}\n`;
/** A config whose input is `generate` and whose output is the given YAML (indented under `output:`). */
const withOutput = (output: string) => `input:\n  generate:\n    mapping: root = 1\noutput:\n${output}`;

/** A Bloblang interpolation `${! expr }`, spelled so that it is not read as a JavaScript template. */
const bl = (expr: string) => ['$', '{! ', expr, ' }'].join('');

const franzInput =
  '  kafka_franz:\n    seed_brokers: [ localhost:9092 ]\n    topics: [ t ]\n    consumer_group: g\n';
const kafkaInput = '  kafka:\n    addresses: [ localhost:9092 ]\n    topics: [ t ]\n    consumer_group: g\n';
const redpandaInput =
  '  redpanda:\n    seed_brokers: [ localhost:9092 ]\n    topics: [ t ]\n    consumer_group: g\n';

describe('lint of the Kafka family: durations', () => {
  it('reports a bad group timing of kafka_franz and a bad nested tcp.connect_timeout at their lines', () => {
    const lints = lint(
      withInput(`${franzInput}    rebalance_timeout: a while\n    tcp:\n      connect_timeout: 5 secs\n`),
    );
    assert.equal(lints.length, 2);
    assert.match(lints[0] ?? '', /^\(6,1\) field rebalance_timeout: invalid duration "a while"/);
    assert.match(lints[1] ?? '', /^\(8,1\) field connect_timeout: invalid duration "5 secs"/);
  });

  it('reports a bad commit_period of the kafka input and fetch_max_wait of the redpanda input', () => {
    assert.match(
      lint(withInput(`${kafkaInput}    commit_period: often\n`))[0] ?? '',
      /^\(6,1\) field commit_period: invalid duration "often"/,
    );
    assert.match(
      lint(withInput(`${redpandaInput}    fetch_max_wait: 1 minute\n`))[0] ?? '',
      /^\(6,1\) field fetch_max_wait: invalid duration "1 minute"/,
    );
  });

  it('reports a bad backoff interval of the kafka output and a bad redpanda output timeout', () => {
    assert.match(
      lint(
        withOutput(
          '  kafka:\n    addresses: [ localhost:9092 ]\n    topic: t\n    backoff:\n      initial_interval: soon\n',
        ),
      )[0] ?? '',
      /^\(9,1\) field initial_interval: invalid duration "soon"/,
    );
    assert.match(
      lint(
        withOutput('  redpanda:\n    seed_brokers: [ localhost:9092 ]\n    topic: t\n    timeout: 2 secs\n'),
      )[0] ?? '',
      /^\(8,1\) field timeout: invalid duration "2 secs"/,
    );
  });
});

describe('lint of the Kafka family: interpolations and mappings', () => {
  it('reports a broken topic and key of kafka_franz at their lines', () => {
    const lints = lint(
      withOutput(
        `  kafka_franz:\n    seed_brokers: [ localhost:9092 ]\n    topic: '${bl('meta(')}'\n    key: '${bl('1 +')}'\n`,
      ),
    );
    assert.equal(lints.length, 2);
    assert.match(lints[0] ?? '', /^\(7,1\) field topic: /);
    assert.match(lints[1] ?? '', /^\(8,1\) field key: /);
  });

  it('reports a broken key of the kafka output and timestamp_ms of the redpanda output', () => {
    assert.match(
      lint(
        withOutput(`  kafka:\n    addresses: [ localhost:9092 ]\n    topic: t\n    key: '${bl('nope(')}'\n`),
      )[0] ?? '',
      /^\(8,1\) field key: /,
    );
    assert.match(
      lint(
        withOutput(
          `  redpanda:\n    seed_brokers: [ localhost:9092 ]\n    topic: t\n    timestamp_ms: '${bl('now(')}'\n`,
        ),
      )[0] ?? '',
      /^\(8,1\) field timestamp_ms: /,
    );
  });

  it('reports a broken extract_tracing_map of the kafka input and batching check of kafka_franz', () => {
    assert.match(
      lint(withInput(`${kafkaInput}    extract_tracing_map: 'root = ('\n`))[0] ?? '',
      /^\(6,1\) field extract_tracing_map: /,
    );
    assert.match(
      lint(
        withOutput(
          "  kafka_franz:\n    seed_brokers: [ localhost:9092 ]\n    topic: t\n    batching:\n      check: 'this.done =='\n",
        ),
      )[0] ?? '',
      /^\(9,1\) field check: /,
    );
  });

  it('accepts valid interpolations, durations and an empty key', () => {
    assert.deepEqual(
      lint(
        withOutput(
          `  kafka:\n    addresses: [ localhost:9092 ]\n    topic: '${bl('@topic')}'\n    key: ''\n    timeout: 1.5s\n`,
        ),
      ),
      [],
    );
  });
});

describe('lint of the Kafka family: checks that were start-up or connect errors', () => {
  it('reports instance_id on kafka_franz, kafka and redpanda inputs (was a build error)', () => {
    const message =
      'instance_id (static group membership) is not supported by nekton on its Node 20 Kafka client';
    assert.deepEqual(lint(withInput(`${franzInput}    instance_id: w1\n`)), [`(3,1) ${message}`]);
    assert.deepEqual(lint(withInput(`${kafkaInput}    instance_id: w1\n`)), [`(3,1) ${message}`]);
    assert.deepEqual(lint(withInput(`${redpandaInput}    instance_id: w1\n`)), [`(3,1) ${message}`]);
  });

  it('reports a SASL mechanism the client cannot use (was a connect error)', () => {
    const sasl = '    sasl:\n      - mechanism: AWS_MSK_IAM\n';
    const message = '(3,1) sasl: mechanism AWS_MSK_IAM is not supported by nekton';
    assert.deepEqual(lint(withInput(`${franzInput}${sasl}`)), [message]);
    assert.deepEqual(lint(withInput(`${redpandaInput}${sasl}`)), [message]);
    assert.deepEqual(
      lint(withOutput(`  kafka_franz:\n    seed_brokers: [ localhost:9092 ]\n    topic: t\n${sasl}`)),
      ['(6,1) sasl: mechanism AWS_MSK_IAM is not supported by nekton'],
    );
    assert.deepEqual(lint(withInput(`${franzInput}    sasl:\n      - mechanism: plain\n`)), []);
  });

  it('reports fetch sizes that are not byte sizes (was a connect error)', () => {
    assert.deepEqual(lint(withInput(`${franzInput}    fetch_max_bytes: lots\n`)), [
      '(3,1) fetch_max_bytes: lots is not a byte size',
    ]);
    assert.deepEqual(lint(withInput(`${redpandaInput}    fetch_min_bytes: 1 page\n`)), [
      '(3,1) fetch_min_bytes: 1 page is not a byte size',
    ]);
  });
});
