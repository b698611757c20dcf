// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Bloblang interpolations, not JS templates
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { spec } from '../../../src/components/processors/metric.js';
import { parseMetricValue, parseTimingValue } from '../../../src/components/processors/metric_value.js';
import type { Processor } from '../../../src/engine/component.js';
import { ConfigError } from '../../../src/engine/errors.js';
import { Message } from '../../../src/message/message.js';
import { createMetricsRegistry, type MetricsRegistry } from '../../../src/metrics/index.js';
import { createTestEnv } from '../../helpers/context.js';
import { waitFor } from '../../helpers/kit.js';
import { send as sendHttp, startServer } from '../../http/support.js';
import { send, startService } from '../../streams/support.js';

/** The config as written; fields left out take their defaults. */
type MetricConfig = Parameters<typeof spec.build>[0];

/** A metric processor whose series go to a real registry, as processor 0 of stream `s`. */
function build(config: Partial<MetricConfig>, lines: string[] = []) {
  const registry = createMetricsRegistry({ type: 'prometheus', processMetrics: false });
  const testEnv = createTestEnv({ streamId: 's' });
  testEnv.env.metrics = registry;
  testEnv.env.logger = pino(
    { level: 'debug' },
    new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    }),
  );
  const ctx = testEnv.builder.context({
    type: 'metric',
    label: '',
    config: {},
    processors: [],
    path: 'root.pipeline.processors.0',
    raw: {},
  });
  // Built synchronously, so a bad config throws from build() itself.
  const processor = spec.build(
    { type: 'counter', name: 'm', value: '', ...config } as MetricConfig,
    ctx,
  ) as Processor;
  return { processor, registry };
}

const BASE = 'label="",path="root.pipeline.processors.0",stream="s"';

function stats(registry: MetricsRegistry) {
  return registry.streamStats('s');
}

/** The Prometheus text of the registry, read from a real `/metrics` endpoint. */
async function exposition(registry: MetricsRegistry): Promise<string> {
  const server = await startServer({ metricsHandler: registry.handler });
  try {
    return (await sendHttp(server, '/metrics')).body;
  } finally {
    await server.close();
  }
}

const docs = (...values: unknown[]) => values.map((v) => new Message(JSON.stringify(v)));

describe('metric processor', () => {
  it('counter: adds one per message, labelled with the interpolated labels and the stream', async () => {
    const { processor, registry } = build({
      type: 'counter',
      name: 'docs_seen',
      labels: { type: '${! json("type") }', topic: 'fixed' },
    });
    const batch = docs({ type: 'a' }, { type: 'b' }, { type: 'a' });
    const [out] = await processor.process(batch);
    assert.equal(out, batch, 'the batch passes unchanged');
    assert.deepEqual(stats(registry), {
      [`docs_seen{${BASE},topic="fixed",type="a"}`]: 2,
      [`docs_seen{${BASE},topic="fixed",type="b"}`]: 1,
    });
  });

  it('counter_by adds integers and floats; gauge keeps the last value', async () => {
    const by = build({ type: 'counter_by', name: 'bytes', value: '${! json("n") }' });
    await by.processor.process(docs({ n: 3 }, { n: 4 }, { n: 0.5 }));
    assert.match(await exposition(by.registry), new RegExp(`^bytes\\{${BASE}\\} 7.5$`, 'm'));

    const gauge = build({ type: 'gauge', name: 'size', value: '${! json("n") }' });
    await gauge.processor.process(docs({ n: 10 }, { n: 2.5 }));
    assert.match(await exposition(gauge.registry), new RegExp(`^size\\{${BASE}\\} 2.5$`, 'm'));
  });

  it('timing records nanoseconds, exported as a summary on /metrics', async () => {
    const { processor, registry } = build({ type: 'timing', name: 'took_ns', value: '${! json("ns") }' });
    await processor.process(docs({ ns: 1000 }, { ns: 3000 }));
    const text = await exposition(registry);
    assert.match(text, /^# TYPE took_ns summary$/m);
    assert.match(text, new RegExp(`^took_ns_sum\\{${BASE}\\} 4000$`, 'm'));
    assert.match(text, new RegExp(`^took_ns_count\\{${BASE}\\} 2$`, 'm'));
  });

  it('logs a value that is not a number and passes the message unflagged, leaving the metric alone', async () => {
    const lines: string[] = [];
    const { processor, registry } = build(
      { type: 'gauge', name: 'g', value: '${! json("n") }', labels: { k: '${! json("k") }' } },
      lines,
    );
    const batch = docs({ n: 5, k: 'ok' }, { n: 'five', k: 'bad' }, { n: -1, k: 'neg' });
    const [out] = await processor.process(batch);
    assert.equal(out?.length, 3);
    for (const msg of out ?? []) assert.equal(msg.error, null);
    assert.deepEqual(out?.[1]?.structured(), { n: 'five', k: 'bad' });
    // No series for the labels of the bad values: the value is read before the series is made.
    assert.deepEqual(stats(registry), { [`g{k="ok",${BASE}}`]: 5 });
    const errors = lines.map((l) => JSON.parse(l) as { level: number; msg: string });
    assert.ok(errors.some((l) => l.level === 50 && /"five" is not a number/.test(l.msg)));
    assert.ok(errors.some((l) => /negative/.test(l.msg)));
  });

  it('timing refuses floats (nanoseconds are whole)', async () => {
    const { processor, registry } = build({ type: 'timing', name: 't', value: '1.5' });
    await processor.process(docs({}));
    const value = stats(registry)[`t{${BASE}}`] as { p50: number };
    assert.equal(value.p50, 0, 'nothing was recorded');
  });

  it('rejects an unknown type, an empty name and a bad label interpolation at build', () => {
    assert.throws(() => build({ type: 'histogram' }), /metric type unrecognised: histogram/);
    assert.throws(() => build({ name: '' }), /metric name must not be empty/);
    assert.throws(
      () => build({ labels: { a: '${! json( }' } }),
      (err) => err instanceof ConfigError,
    );
  });
});

describe('metric values', () => {
  it('read like Go: integers, floats, exponents; negatives, NaN and words refused', () => {
    assert.equal(parseMetricValue('42'), 42);
    assert.equal(parseMetricValue('+7'), 7);
    assert.equal(parseMetricValue('0.25'), 0.25);
    assert.equal(parseMetricValue('1e3'), 1000);
    assert.equal(parseMetricValue('.5'), 0.5);
    assert.equal(parseMetricValue('Inf'), Number.POSITIVE_INFINITY);
    for (const bad of ['', ' 1', 'abc', '1,5', '-1', '-0.5', 'NaN', '0x10', 'null'])
      assert.throws(() => parseMetricValue(bad), Error, bad);
    assert.equal(parseTimingValue('1500'), 1500);
    for (const bad of ['1.5', '1e3', '-5', '']) assert.throws(() => parseTimingValue(bad), Error, bad);
  });
});

describe('metric processor in streams mode', () => {
  it('its series appear on /metrics with the stream label', async () => {
    const svc = await startService();
    try {
      const config = {
        input: { generate: { count: 3, interval: '', mapping: 'root = {"kind": "x"}' } },
        pipeline: {
          processors: [
            { metric: { type: 'counter', name: 'custom_seen', labels: { kind: '${! json("kind") }' } } },
          ],
        },
        output: { drop: {} },
      };
      assert.equal((await send(svc, 'POST', '/streams/s1', JSON.stringify(config))).status, 200);
      const line = 'custom_seen{kind="x",label="",path="root.pipeline.processors.0",stream="s1"} 3';
      await waitFor(async () => (await send(svc, 'GET', '/metrics')).body.includes(line), { message: line });
    } finally {
      await svc.stop();
    }
  });
});
