// `nekton lint` on the messaging connectors (amqp_0_9, nats*, mqtt, kafka*): mistakes that used to
// surface only when the stream started (a bad duration, interpolation or mapping, a missing broker)
// are now reported by lint at the value's line.
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

/** A config whose input is `generate` and whose output is the given YAML (indented under `output:`). */
const withOutput = (output: string) => `input:\n  generate:\n    mapping: root = 1\noutput:\n${output}`;
/** A config whose input is the given YAML and whose output is `drop`. */
const withInput = (input: string) => `input:\n${input}output:\n  drop: {}\n`;

describe('lint of the amqp_0_9 components', () => {
  it('reports an output timeout that is not a duration at its line', () => {
    const lints = lint(
      withOutput('  amqp_0_9:\n    urls: [ amqp://localhost ]\n    exchange: x\n    timeout: 10 secs\n'),
    );
    assert.equal(lints.length, 1);
    assert.match(lints[0] ?? '', /^\(8,1\) field timeout: invalid duration "10 secs"/);
  });

  it('reports a broken interpolation in the exchange and in a message property at their lines', () => {
    const lints = lint(
      withOutput(
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a Bloblang interpolation
        "  amqp_0_9:\n    urls: [ amqp://localhost ]\n    exchange: 'x-${! meta( }'\n    priority: '${! 1 + }'\n",
      ),
    );
    assert.equal(lints.length, 2);
    assert.match(lints[0] ?? '', /^\(7,1\) field exchange: /);
    assert.match(lints[1] ?? '', /^\(8,1\) field priority: /);
  });

  it('reports an input whose urls name no broker (was a start-up error)', () => {
    const lints = lint(withInput("  amqp_0_9:\n    urls: [ ' , ' ]\n    queue: q\n"));
    assert.deepEqual(lints, ['(3,1) amqp_0_9: urls must name at least one broker']);
  });

  it('reports an output whose urls name no broker (was a start-up error)', () => {
    const lints = lint(withOutput('  amqp_0_9:\n    urls: []\n    exchange: x\n'));
    assert.deepEqual(lints, ['(6,1) amqp_0_9: urls must name at least one broker']);
  });

  it('accepts a valid output with an empty timeout and a dynamic routing key', () => {
    assert.deepEqual(
      lint(
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a Bloblang interpolation
        withOutput("  amqp_0_9:\n    urls: [ amqp://localhost ]\n    exchange: x\n    key: '${! @kind }'\n"),
      ),
      [],
    );
  });
});

describe('lint of the NATS components', () => {
  it('reports a bad nak_delay, ack_wait and processor timeout at their lines', () => {
    assert.match(
      lint(
        withInput('  nats:\n    urls: [ nats://localhost:4222 ]\n    subject: s\n    nak_delay: soon\n'),
      )[0] ?? '',
      /^\(5,1\) field nak_delay: invalid duration "soon"/,
    );
    assert.match(
      lint(
        withInput(
          '  nats_jetstream:\n    urls: [ nats://localhost:4222 ]\n    subject: s\n    ack_wait: 2 mins\n',
        ),
      )[0] ?? '',
      /^\(5,1\) field ack_wait: invalid duration "2 mins"/,
    );
    const kv =
      'input:\n  generate:\n    mapping: root = 1\npipeline:\n  processors:\n    - nats_kv:\n        urls: [ nats://localhost:4222 ]\n        bucket: b\n        operation: get\n        key: k\n        timeout: 5 sec\noutput:\n  drop: {}\n';
    assert.match(lint(kv)[0] ?? '', /^\(11,1\) field timeout: invalid duration "5 sec"/);
  });

  it('reports a broken subject and header interpolation at their lines', () => {
    const lints = lint(
      withOutput(
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a Bloblang interpolation
        "  nats:\n    urls: [ nats://localhost:4222 ]\n    subject: 'a.${! @x '\n    headers:\n      k: '${! nope( }'\n",
      ),
    );
    assert.equal(lints.length, 2);
    assert.match(lints[0] ?? '', /^\(7,1\) field subject: /);
    assert.match(lints[1] ?? '', /^\(9,1\) field headers: /);
  });

  it('reports a bad extract_tracing_map mapping at its line', () => {
    const lints = lint(
      withInput(
        "  nats:\n    urls: [ nats://localhost:4222 ]\n    subject: s\n    extract_tracing_map: 'root = ('\n",
      ),
    );
    assert.equal(lints.length, 1);
    assert.match(lints[0] ?? '', /^\(5,1\) /);
  });

  it('reports urls that name no server (was a connect error)', () => {
    assert.deepEqual(lint(withInput("  nats_jetstream:\n    urls: [ ' ' ]\n    subject: s\n")), [
      '(3,1) urls: at least one NATS server URL is required',
    ]);
  });

  it('reports user_jwt without user_nkey_seed (was a connect error)', () => {
    assert.deepEqual(
      lint(
        withOutput(
          '  nats:\n    urls: [ nats://localhost:4222 ]\n    subject: s\n    auth:\n      user_jwt: abc\n',
        ),
      ),
      ['(6,1) auth: user_jwt and user_nkey_seed must be set together'],
    );
  });

  it('accepts a valid nats_kv processor and reports one whose urls name no server', () => {
    const kv = (urls: string) =>
      `input:\n  generate:\n    mapping: root = 1\npipeline:\n  processors:\n    - nats_kv:\n        urls: ${urls}\n        bucket: b\n        operation: get\n        key: k\noutput:\n  drop: {}\n`;
    assert.deepEqual(lint(kv('[ nats://localhost:4222 ]')), []);
    assert.deepEqual(lint(kv('[]')), ['(7,1) urls: at least one NATS server URL is required']);
  });
});

describe('lint of the mqtt components', () => {
  it('reports a bad connect_timeout and write_timeout at their lines', () => {
    assert.match(
      lint(
        withInput(
          '  mqtt:\n    urls: [ tcp://localhost:1883 ]\n    topics: [ a ]\n    connect_timeout: 1x\n',
        ),
      )[0] ?? '',
      /^\(5,1\) field connect_timeout: invalid duration "1x"/,
    );
    assert.match(
      lint(
        withOutput('  mqtt:\n    urls: [ tcp://localhost:1883 ]\n    topic: a\n    write_timeout: 3 s\n'),
      )[0] ?? '',
      /^\(8,1\) field write_timeout: invalid duration "3 s"/,
    );
  });

  it('reports a broken topic interpolation at its line', () => {
    assert.match(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a Bloblang interpolation
      lint(withOutput("  mqtt:\n    urls: [ tcp://localhost:1883 ]\n    topic: 'a/${! json( }'\n"))[0] ?? '',
      /^\(7,1\) field topic: /,
    );
  });

  it('reports empty urls and empty topics (were start-up errors)', () => {
    assert.deepEqual(lint(withInput('  mqtt:\n    urls: []\n    topics: []\n')), [
      '(3,1) mqtt: urls must name at least one broker',
      '(3,1) mqtt: topics must name at least one topic',
    ]);
  });

  it('reports a qos outside 0..2 on the input and the output (were build errors)', () => {
    assert.deepEqual(
      lint(withInput('  mqtt:\n    urls: [ tcp://localhost:1883 ]\n    topics: [ a ]\n    qos: 3\n')),
      ['(3,1) mqtt: qos must be 0, 1 or 2, got 3'],
    );
    assert.deepEqual(
      lint(withOutput('  mqtt:\n    urls: [ tcp://localhost:1883 ]\n    topic: a\n    qos: 5\n')),
      ['(6,1) mqtt: qos must be 0, 1 or 2, got 5'],
    );
  });
});

describe('lint of the kafka components', () => {
  it('reports bad durations of kafka_franz (its own and the connection fields) at their lines', () => {
    const lints = lint(
      withInput(
        '  kafka_franz:\n    seed_brokers: [ localhost:9092 ]\n    topics: [ t ]\n    consumer_group: g\n    commit_period: 1 sec\n    metadata_max_age: forever\n',
      ),
    );
    assert.equal(lints.length, 2);
    assert.match(lints[0] ?? '', /^\(6,1\) field commit_period: invalid duration "1 sec"/);
    assert.match(lints[1] ?? '', /^\(7,1\) field metadata_max_age: invalid duration "forever"/);
  });

  it('reports a bad group duration of the kafka input at its line', () => {
    assert.match(
      lint(
        withInput(
          '  kafka:\n    addresses: [ localhost:9092 ]\n    topics: [ t ]\n    consumer_group: g\n    group:\n      session_timeout: ten seconds\n',
        ),
      )[0] ?? '',
      /^\(7,1\) field session_timeout: invalid duration "ten seconds"/,
    );
  });

  it('reports a bad producer timeout of kafka_franz and kafka at its line', () => {
    assert.match(
      lint(
        withOutput(
          '  kafka_franz:\n    seed_brokers: [ localhost:9092 ]\n    topic: t\n    timeout: 10 secs\n',
        ),
      )[0] ?? '',
      /^\(8,1\) field timeout: invalid duration "10 secs"/,
    );
    assert.match(
      lint(
        withOutput('  kafka:\n    addresses: [ localhost:9092 ]\n    topic: t\n    timeout: 5 secs\n'),
      )[0] ?? '',
      /^\(8,1\) field timeout: invalid duration "5 secs"/,
    );
  });

  it('leaves broker addresses to the run, as the reference does: its own config tests use placeholders', () => {
    // The reference's unit_test_example.yaml says `addresses: [ TODO ]` and lints clean there.
    assert.deepEqual(lint(withOutput('  kafka:\n    addresses: [ TODO ]\n    topic: t\n')), []);
    assert.deepEqual(
      lint(
        withInput("  kafka_franz:\n    seed_brokers: [ ' ' ]\n    topics: [ t ]\n    consumer_group: g\n"),
      ),
      [],
    );
  });
});
