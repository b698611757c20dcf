import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MetricsRegistry } from '../../src/metrics/index.js';
import { createMetricsRegistry } from '../../src/metrics/index.js';
import { send, startServer } from '../http/support.js';

async function exposition(registry: MetricsRegistry): Promise<string> {
  const server = await startServer({ metricsHandler: registry.handler });
  try {
    const reply = await send(server, '/metrics');
    assert.equal(reply.status, 200);
    assert.match(String(reply.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    return reply.body;
  } finally {
    await server.close();
  }
}

describe('prometheus metrics', () => {
  it('exports a counter with the label and path labels (served on /metrics)', async () => {
    const registry = createMetricsRegistry({ type: 'prometheus', processMetrics: false });
    const received = registry.scope({ label: '', path: 'root.input' }).counter('input_received');
    received.inc();
    received.inc(2);
    const text = await exposition(registry);
    assert.match(text, /^# TYPE input_received counter$/m);
    assert.match(text, /^input_received\{label="",path="root.input"\} 3$/m);
  });

  it('exports timers as summaries in nanoseconds, and gauges', async () => {
    const registry = createMetricsRegistry({ type: 'prometheus', processMetrics: false });
    const scope = registry.scope({ label: 'out', path: 'root.output' });
    const latency = scope.timer('output_latency_ns');
    for (const ns of [1000, 2000, 3000]) latency.observeNs(ns);
    scope.gauge('benchmark_messages_per_second').set(42);
    const text = await exposition(registry);
    assert.match(text, /^# TYPE output_latency_ns summary$/m);
    assert.match(text, /^output_latency_ns\{label="out",path="root.output",quantile="0.5"\} \d+/m);
    assert.match(text, /^output_latency_ns_sum\{label="out",path="root.output"\} 6000$/m);
    assert.match(text, /^output_latency_ns_count\{label="out",path="root.output"\} 3$/m);
    assert.match(text, /^benchmark_messages_per_second\{label="out",path="root.output"\} 42$/m);
  });

  it('keeps extra labels, and shares one series between callers with the same labels', async () => {
    const registry = createMetricsRegistry({ type: 'prometheus', processMetrics: false });
    const scope = registry.scope({ label: 'c', path: 'root.cache_resources.0' });
    scope.counter('cache_success', { operation: 'get' }).inc();
    scope.counter('cache_success', { operation: 'get' }).inc();
    scope.counter('cache_success', { operation: 'set' }).inc();
    const text = await exposition(registry);
    assert.match(text, /^cache_success\{label="c",operation="get",path="root.cache_resources.0"\} 2$/m);
    assert.match(text, /^cache_success\{label="c",operation="set",path="root.cache_resources.0"\} 1$/m);
  });

  it('labels nested scopes with their own label and path, keeping the stream', async () => {
    const registry = createMetricsRegistry({ type: 'prometheus', processMetrics: false });
    const child = registry
      .scope({ label: '', path: 'root', stream: 's' })
      .child('p', 'root.pipeline.processors.0');
    child.counter('processor_received').inc(5);
    const text = await exposition(registry);
    assert.match(text, /^processor_received\{label="p",path="root.pipeline.processors.0",stream="s"\} 5$/m);
  });

  it('includes Node process metrics unless turned off', async () => {
    const registry = createMetricsRegistry({ type: 'prometheus' });
    assert.match(await exposition(registry), /^process_cpu_user_seconds_total /m);
  });

  it('does not let one name be both a counter and a timer', async () => {
    const registry = createMetricsRegistry({ type: 'prometheus', processMetrics: false });
    const scope = registry.scope({ label: '', path: 'root.input' });
    scope.counter('clash').inc();
    scope.timer('clash').observeNs(5); // must not throw
    assert.match(await exposition(registry), /^# TYPE clash counter$/m);
  });
});

describe('stream stats', () => {
  it('keys counters by name and sorted labels, as integers', () => {
    const registry = createMetricsRegistry({ type: 'prometheus', processMetrics: false });
    const scope = registry.scope({ label: '', path: 'root.input', stream: 'foo' });
    scope.counter('input_received').inc(3);
    scope.counter('batch_created', { mechanism: 'count' }).inc();
    scope.gauge('benchmark_bytes_per_second').set(12.7);
    registry.scope({ label: '', path: 'root.input', stream: 'bar' }).counter('input_received').inc();
    assert.deepEqual(registry.streamStats('foo'), {
      'batch_created{label="",mechanism="count",path="root.input",stream="foo"}': 1,
      'benchmark_bytes_per_second{label="",path="root.input",stream="foo"}': 12,
      'input_received{label="",path="root.input",stream="foo"}': 3,
    });
    assert.deepEqual(
      Object.keys(registry.streamStats('foo')),
      Object.keys(registry.streamStats('foo')).sort(),
    );
  });

  it('reports timers as p50/p90/p99 in nanoseconds', () => {
    const registry = createMetricsRegistry({ type: 'prometheus', processMetrics: false });
    const timer = registry
      .scope({ label: '', path: 'root.output', stream: 'foo' })
      .timer('output_latency_ns');
    for (let i = 1; i <= 1000; i++) timer.observeNs(i * 1000);
    const stats = registry.streamStats('foo')['output_latency_ns{label="",path="root.output",stream="foo"}'];
    assert.ok(typeof stats === 'object');
    const near = (actual: number, expected: number) =>
      assert.ok(Math.abs(actual - expected) / expected < 0.06, `${actual} vs ${expected}`);
    near(stats.p50, 500_000);
    near(stats.p90, 900_000);
    near(stats.p99, 990_000);
  });

  it('forgets a removed stream: no stats, no exported series, fresh counters on re-creation', async () => {
    const registry = createMetricsRegistry({ type: 'prometheus', processMetrics: false });
    const old = registry.scope({ label: '', path: 'root.input', stream: 'foo' }).counter('input_received');
    old.inc(7);
    registry.scope({ label: '', path: 'root.input', stream: 'keep' }).counter('input_received').inc();
    registry.removeStream('foo');
    assert.deepEqual(registry.streamStats('foo'), {});
    const text = await exposition(registry);
    assert.doesNotMatch(text, /stream="foo"/);
    assert.match(text, /stream="keep"/);
    old.inc(); // a stopping component may still count; it goes nowhere
    registry.scope({ label: '', path: 'root.input', stream: 'foo' }).counter('input_received').inc();
    assert.deepEqual(registry.streamStats('foo'), {
      'input_received{label="",path="root.input",stream="foo"}': 1,
    });
  });

  it('drops a metric family once its last series is removed', async () => {
    const registry = createMetricsRegistry({ type: 'prometheus', processMetrics: false });
    registry.scope({ label: '', path: 'root.input', stream: 'foo' }).counter('only_foo').inc();
    registry.removeStream('foo');
    assert.doesNotMatch(await exposition(registry), /only_foo/);
  });
});

describe('metrics type none', () => {
  it('has no /metrics handler and records nothing outside streams', () => {
    const registry = createMetricsRegistry({ type: 'none' });
    assert.equal(registry.handler, undefined);
    const counter = registry.scope({ label: '', path: 'root.input' }).counter('input_received');
    counter.inc();
    assert.deepEqual(registry.streamStats('anything'), {});
  });

  it('still keeps per-stream stats for /streams/{id}/stats', () => {
    const registry = createMetricsRegistry({ type: 'none' });
    registry.scope({ label: '', path: 'root.input', stream: 'foo' }).counter('input_received').inc(2);
    assert.deepEqual(registry.streamStats('foo'), {
      'input_received{label="",path="root.input",stream="foo"}': 2,
    });
  });
});

describe('metrics type json_api', () => {
  it('serves every series as one JSON object in the stats key format', async () => {
    const registry = createMetricsRegistry({ type: 'json_api' });
    registry.scope({ label: '', path: 'root.input' }).counter('input_received').inc(4);
    registry.scope({ label: 'o', path: 'root.output' }).timer('output_latency_ns').observeNs(2500);
    const server = await startServer({ metricsHandler: registry.handler });
    try {
      const reply = await send(server, '/stats');
      assert.equal(reply.headers['content-type'], 'application/json');
      assert.deepEqual(JSON.parse(reply.body), {
        'input_received{label="",path="root.input"}': 4,
        'output_latency_ns{label="o",path="root.output"}': { p50: 2500, p90: 2500, p99: 2500 },
      });
    } finally {
      await server.close();
    }
  });
});

describe('unsupported metrics types', () => {
  it('are refused with a config error naming the supported ones', () => {
    assert.throws(
      () => createMetricsRegistry({ type: 'aws_cloudwatch' }),
      /metrics type aws_cloudwatch is not supported \(use one of prometheus, json_api, none, statsd, influxdb, logger, open_telemetry_collector\)/,
    );
  });
});
