import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { pino } from 'pino';
import { spec } from '../../../src/components/processors/benchmark.js';
import { formatBytes, formatRate } from '../../../src/components/processors/benchmark_format.js';
import type { Processor } from '../../../src/engine/component.js';
import { Message } from '../../../src/message/message.js';
import { createMetricsRegistry } from '../../../src/metrics/index.js';
import { createTestEnv } from '../../helpers/context.js';

interface LogLine {
  level: number;
  msg: string;
  'msg/sec'?: number;
  'bytes/sec'?: number;
}

/** A benchmark processor logging into `lines`, with its metrics in a real registry. */
function build(config: Partial<Parameters<typeof spec.build>[0]>) {
  const lines: LogLine[] = [];
  const registry = createMetricsRegistry({ type: 'json_api' });
  const testEnv = createTestEnv({ streamId: 's' });
  testEnv.env.metrics = registry;
  testEnv.env.logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(String(chunk)) as LogLine);
        done();
      },
    }),
  );
  const ctx = testEnv.builder.context({
    type: 'benchmark',
    label: 'bench',
    config: {},
    processors: [],
    path: 'root.pipeline.processors.0',
    raw: {},
  });
  // Built synchronously, so a bad config throws from build() itself.
  const processor = spec.build({ interval: '5s', count_bytes: true, ...config }, ctx) as Processor;
  return { processor, lines, stats: () => registry.streamStats('s') };
}

const BASE = 'label="bench",path="root.pipeline.processors.0",stream="s"';
const payloads = (n: number, size: number) => Array.from({ length: n }, () => new Message('x'.repeat(size)));

describe('benchmark processor', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setInterval', 'Date'] }));
  afterEach(() => mock.timers.reset());

  it('logs rolling stats each interval and passes messages unchanged', async () => {
    const { processor, lines } = build({ interval: '2s' });
    const batch = payloads(10, 1000);
    const [out] = await processor.process(batch);
    assert.equal(out, batch);
    assert.equal(lines.length, 0, 'nothing before the first interval');
    mock.timers.tick(2000);
    assert.equal(lines.length, 1);
    assert.equal(lines[0]?.msg, 'rolling stats: 5 msg/sec, 5.0 kB/sec');
    assert.equal(lines[0]?.level, 30);
    assert.equal(lines[0]?.['msg/sec'], 5);
    assert.equal(lines[0]?.['bytes/sec'], 5000);
    // The rolling window starts again: an idle interval reports zero.
    mock.timers.tick(2000);
    assert.equal(lines[1]?.msg, 'rolling stats: 0 msg/sec, 0 B/sec');
    await processor.close();
  });

  it('logs a lifetime summary at close, once, and stops the rolling reports', async () => {
    const { processor, lines } = build({ interval: '1s' });
    await processor.process(payloads(3, 10));
    mock.timers.tick(1000);
    await processor.process(payloads(3, 10));
    mock.timers.tick(500);
    await processor.close();
    await processor.close();
    assert.deepEqual(
      lines.map((l) => l.msg),
      ['rolling stats: 3 msg/sec, 30 B/sec', 'total stats: 4 msg/sec, 40 B/sec'],
    );
    mock.timers.tick(5000);
    assert.equal(lines.length, 2, 'no reports after close');
  });

  it('with count_bytes false logs messages only; with interval 0s only the summary', async () => {
    const { processor, lines } = build({ interval: '0s', count_bytes: false });
    await processor.process(payloads(8, 100));
    mock.timers.tick(10_000);
    assert.equal(lines.length, 0);
    await processor.close();
    assert.equal(lines.length, 1);
    assert.equal(lines[0]?.msg, 'total stats: 0.8 msg/sec');
    assert.equal(lines[0]?.['bytes/sec'], undefined);
  });

  it('exposes its totals and rates as metrics', async () => {
    const { processor, stats } = build({ interval: '1s' });
    await processor.process(payloads(4, 250));
    mock.timers.tick(1000);
    assert.deepEqual(stats(), {
      [`benchmark_bytes_per_second{${BASE}}`]: 1000,
      [`benchmark_bytes_total{${BASE}}`]: 1000,
      [`benchmark_messages_per_second{${BASE}}`]: 4,
      [`benchmark_messages_total{${BASE}}`]: 4,
    });
    await processor.close();
  });

  it('rejects an interval that is not a duration', () => {
    assert.throws(() => build({ interval: 'often' }), /interval/);
  });
});

describe('benchmark number formats', () => {
  it('match go-humanize: Ftoa trims zeros, Bytes uses SI units', () => {
    assert.equal(formatRate(100), '100');
    assert.equal(formatRate(1 / 3), '0.333333');
    assert.equal(formatRate(12.5), '12.5');
    assert.equal(formatRate(0), '0');
    assert.equal(formatBytes(0), '0 B');
    assert.equal(formatBytes(9.9), '9 B');
    assert.equal(formatBytes(999), '999 B');
    assert.equal(formatBytes(1234), '1.2 kB');
    assert.equal(formatBytes(82_854_982), '83 MB');
    assert.equal(formatBytes(12_500_000), '12 MB', 'ties round to even, as Go prints them');
    assert.equal(formatBytes(2_000_000_000), '2.0 GB');
  });
});
