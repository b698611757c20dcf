import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { createLogger } from '../../src/engine/logger.js';
import { createMetricsRegistry } from '../../src/metrics/index.js';

function jsonLogger() {
  const out = new PassThrough();
  const lines: Record<string, unknown>[] = [];
  out.on('data', (chunk) => {
    for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
  });
  return { logger: createLogger({ format: 'json', level: 'INFO' }, out), lines };
}

describe('logger metrics', () => {
  it('prints counters and timers at close, with their labels', async () => {
    const { logger, lines } = jsonLogger();
    const registry = createMetricsRegistry({ type: 'logger', settings: { flush_metrics: false }, logger });
    const scope = registry.scope({ label: 'in', path: 'root.input' });
    scope.counter('input_received').inc(4);
    scope.timer('input_latency_ns').observeNs(2000);
    assert.equal(lines.length, 0, 'nothing before close without a push_interval');
    await registry.close();
    await new Promise((r) => setImmediate(r));
    const counter = lines.find((l) => l.msg === 'Counter metric');
    assert.deepEqual(
      { name: counter?.name, value: counter?.value, label: counter?.label, path: counter?.path },
      { name: 'input_received', value: 4, label: 'in', path: 'root.input' },
    );
    const timing = lines.find((l) => l.msg === 'Timing metric');
    assert.equal(timing?.name, 'input_latency_ns');
    assert.equal(timing?.p99, 2000);
  });

  it('prints every push_interval and resets with flush_metrics', async () => {
    const { logger, lines } = jsonLogger();
    const registry = createMetricsRegistry({
      type: 'logger',
      settings: { push_interval: '40ms', flush_metrics: true },
      logger,
    });
    registry.scope({ label: '', path: 'root.output' }).counter('output_sent').inc(3);
    await new Promise((r) => setTimeout(r, 150));
    await registry.close();
    const values = lines.filter((l) => l.name === 'output_sent').map((l) => l.value);
    assert.ok(values.length >= 3, `printed ${values.length} times`);
    assert.equal(values[0], 3);
    assert.ok(
      values.slice(1).every((v) => v === 0),
      `reset after the first print: ${values.join(',')}`,
    );
  });
});
