// The `redpanda` section's logs_topic and status_topic: nekton's own log lines and status events
// produced as records (client library stand-in, no broker is reachable here): which lines, their
// shape, retries, a full queue, what is still queued at close, and the status events.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startSectionTopics } from '../../../src/components/kafka/section_topics.js';
import { registry } from '../../../src/components/registry.js';
import { schemaProvider } from '../../../src/config/schema.js';
import { toServiceConfig } from '../../../src/config/service_config.js';
import { buildLineIndex, parseYaml, yamlToValue } from '../../../src/config/yaml_document.js';
import { createLogger, type LogTap } from '../../../src/engine/logger.js';
import { runNekton, tempDir } from '../../helpers/cli.js';
import { closedPort, waitFor } from '../../helpers/kit.js';
import { fakeKafka, settle } from './stand_in.js';

const provider = schemaProvider(registry);

/** The section as the service holds it: defaults filled. */
function section(extra = '', topic = '__logs'): Record<string, unknown> {
  const yaml = `redpanda:\n  seed_brokers: [ "127.0.0.1:9092" ]\n  logs_topic: "${topic}"\n  pipeline_id: p1\n${extra}`;
  const parsed = parseYaml(yaml, 'r.yaml');
  const config = toServiceConfig(yamlToValue(parsed), { provider, lines: buildLineIndex(parsed) });
  if (!config.redpanda) throw new Error('no section');
  return config.redpanda;
}

interface Sent {
  topic: string;
  key: Buffer;
  value: Buffer;
}

function setUp(extra = '', format = 'logfmt', options = {}) {
  const kafka = fakeKafka();
  const tap: LogTap = {};
  const written: string[] = [];
  const logger = createLogger({ level: 'DEBUG', format }, { write: (l: string) => written.push(l) }, tap);
  const reports: string[] = [];
  const logs = startSectionTopics(
    section(extra),
    tap,
    (m) => reports.push(m),
    async () => kafka.module,
    {
      instanceId: 'i1',
      ...options,
    },
  );
  if (!logs) throw new Error('no logs_topic');
  const records = () => kafka.sends.flatMap((s) => s.messages as Sent[]);
  return { kafka, logger, logs, reports, written, records };
}

describe('redpanda logs_topic (client library stand-in)', () => {
  it('produces each line at logs_level or above, keyed by pipeline_id, in the reference shape', async () => {
    for (const format of ['logfmt', 'json']) {
      const { logger, logs, records, written, kafka } = setUp('  logs_level: warn\n', format);
      logger.info('not for the topic');
      logger.child({ path: 'root.input' }).warn('connection lost');
      logger.error({ attempts: 3 }, 'gave up');
      await logs.sink.flush();
      assert.equal(written.length, 3, 'the log itself is unchanged');
      assert.equal(kafka.producerOptions[0]?.clientId, 'redpanda-connect');
      const got = records();
      assert.deepEqual(
        got.map((r) => [r.topic, r.key.toString()]),
        [
          ['__logs', 'p1'],
          ['__logs', 'p1'],
        ],
        format,
      );
      const first = JSON.parse(got[0]?.value.toString() ?? '{}');
      assert.equal(first.message, 'connection lost');
      assert.equal(first.level, 'WARN');
      assert.equal(first.instance_id, 'i1');
      assert.equal(first.pipeline_id, 'p1');
      assert.equal(first.path, 'root.input');
      assert.equal(first['@service'], 'nekton');
      assert.match(first.time, /^\d{4}-\d\d-\d\dT/);
      assert.equal(JSON.parse(got[1]?.value.toString() ?? '{}').attempts, '3', 'fields as strings');
      await logs.close(1000);
    }
  });

  it('sends up to 50 lines in one request', async () => {
    const { logger, logs, kafka } = setUp();
    for (let i = 0; i < 60; i++) logger.info(`line ${i}`);
    await logs.sink.flush();
    assert.deepEqual(
      kafka.sends.map((s) => s.messages.length),
      [50, 10],
    );
    await logs.close(1000);
  });

  it('sends a failed batch again, and reports the failure', async () => {
    const { logger, logs, kafka, reports, records } = setUp();
    let failures = 1;
    kafka.onSend = async () => {
      if (failures-- > 0) throw new Error('NOT_LEADER_FOR_PARTITION');
    };
    logger.info('first');
    await logs.sink.flush();
    assert.equal(kafka.sends.length, 2, 'the refused request, then the retry');
    assert.deepEqual(
      records().map((r) => JSON.parse(r.value.toString()).message),
      ['first', 'first'],
    );
    assert.match(reports[0] ?? '', /sending 1 records failed, retrying: .*NOT_LEADER_FOR_PARTITION/);
    await logs.close(1000);
  });

  it('drops new lines once the queue is full, instead of holding the process up', async () => {
    const { logger, logs, kafka, reports } = setUp('', 'logfmt', { capacity: 2 });
    let answer = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    kafka.onConnect = () => answered;
    logger.info('a');
    logger.info('b');
    void logs.sink.flush();
    logger.info('c');
    logger.info('d');
    assert.equal(logs.sink.dropped, 2);
    assert.equal(reports.filter((r) => /full/.test(r)).length, 1, 'said once');
    answer();
    await settle();
    await logs.sink.flush();
    assert.deepEqual(
      kafka.sends.flatMap((s) => s.messages as Sent[]).map((r) => JSON.parse(r.value.toString()).message),
      ['a', 'b'],
    );
    await logs.close(1000);
  });

  it('sends what is queued at close, then stops taking lines', async () => {
    const { logger, logs, records } = setUp('', 'logfmt', { periodMs: 60_000 });
    logger.info('last words');
    await logs.close(1000);
    assert.deepEqual(
      records().map((r) => JSON.parse(r.value.toString()).message),
      ['last words'],
    );
    logger.info('after close');
    await settle();
    assert.equal(records().length, 1);
  });

  it('is off without a logs_topic', () => {
    const tap: LogTap = {};
    const raw = section('', '');
    assert.equal(
      startSectionTopics(raw, tap, () => {}),
      undefined,
    );
    assert.equal(tap.line, undefined);
  });
});

describe('redpanda status_topic (client library stand-in)', () => {
  it('sends the reference status events: initialising, connection health with each error, exiting', async () => {
    const kafka = fakeKafka();
    const tap: LogTap = {};
    const raw = section('  status_topic: __status\n', '');
    const topics = startSectionTopics(
      raw,
      tap,
      () => {},
      async () => kafka.module,
      { instanceId: 'i1' },
    );
    const status = topics?.status;
    if (!topics || !status) throw new Error('no status_topic');
    assert.equal(tap.line, undefined, 'no logs_topic: the log is not tapped');
    status.initialising();
    status.report([{ path: 'input', label: '', connected: true }]);
    status.report([
      { path: 'input', label: '', connected: true },
      { path: 'output.broker.outputs.1', label: 'dlq', connected: false, error: 'ECONNREFUSED' },
    ]);
    status.exiting('the pipeline failed');
    await topics.close(1000);
    const events = kafka.sends.flatMap((s) => s.messages as Sent[]);
    assert.deepEqual(
      events.map((e) => [e.topic, e.key.toString()]),
      Array(4).fill(['__status', 'p1']),
    );
    const bodies = events.map((e) => JSON.parse(e.value.toString()));
    for (const body of bodies) assert.match(body.timestamp, /^\d+$/, 'int64 as protojson writes it');
    assert.deepEqual(
      bodies.map(({ timestamp: _, ...rest }) => rest),
      [
        { type: 'TYPE_INITIALIZING', pipelineId: 'p1', instanceId: 'i1' },
        { type: 'TYPE_CONNECTION_HEALTHY', pipelineId: 'p1', instanceId: 'i1' },
        {
          type: 'TYPE_CONNECTION_ERROR',
          pipelineId: 'p1',
          instanceId: 'i1',
          connectionErrors: [{ message: 'ECONNREFUSED', path: 'output.broker.outputs.1', label: 'dlq' }],
        },
        {
          type: 'TYPE_EXITING',
          pipelineId: 'p1',
          instanceId: 'i1',
          exitError: { message: 'the pipeline failed' },
        },
      ],
    );
  });

  it('shares one producer with logs_topic, and reports a watched stream every period', async () => {
    const kafka = fakeKafka();
    const tap: LogTap = {};
    const logger = createLogger({ level: 'INFO' }, { write: () => {} }, tap);
    const raw = section('  status_topic: __status\n');
    const topics = startSectionTopics(
      raw,
      tap,
      () => {},
      async () => kafka.module,
      {
        instanceId: 'i1',
        statusPeriodMs: 10,
      },
    );
    if (!topics?.status) throw new Error('no status_topic');
    topics.status.watch(() => [{ path: 'input', label: '', connected: false, error: 'down' }]);
    logger.info('hello');
    await waitFor(
      () => kafka.sends.flatMap((s) => s.messages as Sent[]).some((r) => r.topic === '__status'),
      {
        message: 'a periodic status event',
      },
    );
    await topics.close(1000);
    const topicsSent = new Set(kafka.sends.flatMap((s) => s.messages as Sent[]).map((r) => r.topic));
    assert.deepEqual([...topicsSent].sort(), ['__logs', '__status']);
    assert.equal(kafka.producerOptions.length, 1, 'one producer for both');
  });
});

describe('logs_topic and status_topic in a normal-mode run with no broker', () => {
  it('runs the stream to the end, reports the unreachable brokers in its logs, and exits 0', async () => {
    const dir = tempDir();
    const port = await closedPort();
    const config = join(dir, 'topics.yaml');
    writeFileSync(
      config,
      `redpanda:\n  seed_brokers: [ 127.0.0.1:${port} ]\n  logs_topic: logs\n  status_topic: status\n` +
        'input:\n  generate:\n    count: 3\n    interval: ""\n    mapping: root = counter()\n' +
        'output:\n  stdout: {}\n',
    );
    try {
      const run = await runNekton(['-c', config], { timeoutMs: 60_000 });
      assert.equal(run.code, 0, run.stderr);
      // The stream is not held up by the topics: every message arrives.
      assert.deepEqual(run.stdout.trim().split('\n'), ['1', '2', '3']);
      assert.match(run.stderr, new RegExp(`127\\.0\\.0\\.1:${port}`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
