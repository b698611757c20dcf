// `benchmark`: logs messages (and bytes) per second at an interval and a lifetime summary at close;
// messages pass unchanged.
import type { Logger } from 'pino';
import { defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import type { Counter, Gauge, MetricsScope } from '../../engine/context.js';
import type { Batch } from '../../message/message.js';
import { formatBytes, formatRate } from './benchmark_format.js';

interface Tally {
  messages: number;
  bytes: number;
}

export class BenchmarkProcessor implements Processor {
  private readonly startedAt: number;
  private rolling: Tally = { messages: 0, bytes: 0 };
  private readonly total: Tally = { messages: 0, bytes: 0 };
  private readonly timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly messagesPerSecond: Gauge;
  private readonly bytesPerSecond: Gauge;
  private readonly messagesTotal: Counter;
  private readonly bytesTotal: Counter;

  constructor(
    private readonly logger: Logger,
    metrics: MetricsScope,
    intervalMs: number,
    private readonly countBytes: boolean,
  ) {
    this.startedAt = Date.now();
    this.messagesPerSecond = metrics.gauge('benchmark_messages_per_second');
    this.bytesPerSecond = metrics.gauge('benchmark_bytes_per_second');
    this.messagesTotal = metrics.counter('benchmark_messages_total');
    this.bytesTotal = metrics.counter('benchmark_bytes_total');
    if (intervalMs > 0) {
      this.timer = setInterval(() => this.reportRolling(intervalMs), intervalMs);
      // The stream closes the processor; a forgotten one must not keep the process alive.
      this.timer.unref();
    }
  }

  process(batch: Batch): Batch[] {
    let bytes = 0;
    // Counting bytes serialises structured messages, hence the option to skip it.
    if (this.countBytes) for (const msg of batch) bytes += msg.byteSize();
    this.rolling.messages += batch.length;
    this.rolling.bytes += bytes;
    this.total.messages += batch.length;
    this.total.bytes += bytes;
    this.messagesTotal.inc(batch.length);
    this.bytesTotal.inc(bytes);
    return [batch];
  }

  private reportRolling(intervalMs: number): void {
    const window = this.rolling;
    this.rolling = { messages: 0, bytes: 0 };
    this.report('rolling', window, intervalMs);
  }

  private report(window: string, tally: Tally, elapsedMs: number): void {
    const seconds = elapsedMs / 1000;
    const messagesPerSec = tally.messages / seconds;
    const bytesPerSec = tally.bytes / seconds;
    this.messagesPerSecond.set(messagesPerSec);
    this.bytesPerSecond.set(bytesPerSec);
    if (this.countBytes) {
      this.logger.info(
        { 'msg/sec': messagesPerSec, 'bytes/sec': bytesPerSec },
        `${window} stats: ${formatRate(messagesPerSec)} msg/sec, ${formatBytes(bytesPerSec)}/sec`,
      );
    } else {
      this.logger.info(
        { 'msg/sec': messagesPerSec },
        `${window} stats: ${formatRate(messagesPerSec)} msg/sec`,
      );
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.report('total', this.total, Date.now() - this.startedAt);
  }
}

export const spec = defineComponent({
  name: 'benchmark',
  kind: 'processor',
  status: 'stable',
  categories: ['Utility'],
  summary: 'Logs basic throughput statistics of the messages that pass through it.',
  description: `Logs messages per second and bytes per second of the messages processed, once per \`interval\`, and a summary over the whole lifetime of the processor when it shuts down. Messages pass unchanged.

The following metrics are exposed:

- \`benchmark_messages_per_second\` (gauge): the throughput of the last report, in messages per second.
- \`benchmark_messages_total\` (counter): the number of messages processed.
- \`benchmark_bytes_per_second\` (gauge): the throughput of the last report, in bytes per second.
- \`benchmark_bytes_total\` (counter): the number of bytes processed.`,
  fields: [
    field.duration(
      'interval',
      'How often to log rolling statistics, as a duration. With `0s` only the summary is logged, at shutdown.',
      { default: '5s' },
    ),
    field.bool(
      'count_bytes',
      'Whether to measure bytes per second. Counting bytes serialises structured messages, which costs time when nothing else in the pipeline needs them serialised.',
      { default: true },
    ),
  ],
  examples: [
    {
      title: 'Measure the throughput of a generator',
      config: `input:
  generate:
    count: 100000
    interval: ''
    mapping: 'root = {"id": counter()}'
pipeline:
  processors:
    - benchmark:
        interval: 1s
output:
  drop: {}
`,
    },
  ],
  build: (config, ctx): Processor =>
    new BenchmarkProcessor(ctx.logger, ctx.metrics, config.interval, config.count_bytes),
});
