// `metric`: updates a custom counter, gauge or timing series for each message; messages pass unchanged.
import type { Interpolation } from '../../bloblang/index.js';
import { defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import type { MetricsScope } from '../../engine/context.js';
import { ConfigError } from '../../engine/errors.js';
import { processorErrorLog } from '../../engine/processor_helpers.js';
import type { Batch } from '../../message/message.js';
import { parseMetricValue, parseTimingValue } from './metric_value.js';

/** Records an already parsed value on one series (bound at creation, so the hot path looks nothing up). */
type Recorder = (value: number) => void;

interface MetricType {
  /** Reads the rendered `value`; throws when it does not suit the type. */
  parse(text: string): number;
  /** The recorder of the series with these labels. */
  series(scope: MetricsScope, name: string, labels?: Record<string, string>): Recorder;
}

const counter = (scope: MetricsScope, name: string, labels?: Record<string, string>): Recorder => {
  const series = scope.counter(name, labels);
  return (n) => series.inc(n);
};

const TYPES: Record<string, MetricType> = {
  counter: { parse: () => 1, series: counter },
  counter_by: { parse: parseMetricValue, series: counter },
  gauge: {
    parse: parseMetricValue,
    series: (scope, name, labels) => {
      const series = scope.gauge(name, labels);
      return (n) => series.set(n);
    },
  },
  timing: {
    parse: parseTimingValue,
    series: (scope, name, labels) => {
      const series = scope.timer(name, labels);
      return (ns) => series.observeNs(ns);
    },
  },
};

/** Label values seen are few in sane configs; the bound only stops a runaway label from growing memory. */
const MAX_CACHED_SERIES = 10_000;

const EMPTY_NAME = 'metric name must not be empty';

export class MetricProcessor implements Processor {
  private readonly cached = new Map<string, Recorder>();
  private readonly fixedSeries: Recorder | undefined;

  constructor(
    private readonly type: MetricType,
    private readonly scope: MetricsScope,
    private readonly name: string,
    private readonly value: Interpolation,
    /** Label names sorted, as the reference orders them. */
    private readonly labels: [string, Interpolation][],
    private readonly logError: (err: Error) => void,
  ) {
    this.fixedSeries = labels.length === 0 ? type.series(scope, name) : undefined;
  }

  process(batch: Batch): Batch[] {
    for (let i = 0; i < batch.length; i++) {
      // Like the reference, a bad value is logged and never flags or drops the message; the
      // series of its labels is not even created.
      let value: number;
      try {
        value = this.type.parse(this.value.render(batch, i));
      } catch (err) {
        this.logError(err instanceof Error ? err : new Error(String(err)));
        continue;
      }
      this.seriesFor(batch, i)(value);
    }
    return [batch];
  }

  private seriesFor(batch: Batch, i: number): Recorder {
    if (this.fixedSeries !== undefined) return this.fixedSeries;
    const values = this.labels.map(([, label]) => label.render(batch, i));
    const key = values.join('\u0000');
    let series = this.cached.get(key);
    if (series === undefined) {
      const labels: Record<string, string> = {};
      this.labels.forEach(([name], n) => {
        labels[name] = values[n] as string;
      });
      series = this.type.series(this.scope, this.name, labels);
      if (this.cached.size >= MAX_CACHED_SERIES) this.cached.clear();
      this.cached.set(key, series);
    }
    return series;
  }

  async close(): Promise<void> {}
}

export const spec = defineComponent({
  name: 'metric',
  kind: 'processor',
  status: 'stable',
  categories: ['Utility'],
  summary: 'Emits a custom metric (counter, gauge or timing) from each message; messages pass unchanged.',
  description: `For each message the interpolated \`value\` is rendered and applied to the metric named \`name\`, labelled with the interpolated \`labels\` (plus the usual \`label\`, \`path\` and, in streams mode, \`stream\`). The series appear with nekton's own metrics, e.g. on \`/metrics\`. Names are made Prometheus-safe (characters other than letters, digits, \`_\` and \`:\` become \`_\`).

Types:

- \`counter\`: adds exactly 1 per message; \`value\` is ignored.
- \`counter_by\`: adds \`value\`, which must parse as a non-negative integer or float.
- \`gauge\`: sets the gauge to \`value\`, a non-negative integer or float.
- \`timing\`: records \`value\` as a duration in nanoseconds; it must be a non-negative integer.

A value that is not a number (or is negative) is logged as an error and the metric is left alone; the message is never flagged or dropped.`,
  fields: [
    field.enum('type', 'The metric type to create.', ['counter', 'counter_by', 'gauge', 'timing']),
    field.string(
      'name',
      'The name of the metric; it should be unique across all components, otherwise the series are shared.',
    ),
    field.map(
      field.interpolated('labels', 'A map of label names to interpolated values that enrich the metric.', {
        optional: true,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolations, not JS templates
        examples: [{ type: '${! json("doc.type") }', topic: '${! meta("kafka_topic") }' }],
      }),
    ),
    field.interpolated('value', 'The value to set or add, for the types that use one.', { default: '' }),
  ],
  examples: [
    {
      title: 'Count messages by document type',
      config: `input:
  generate:
    count: 4
    interval: ''
    mapping: 'root = {"doc": {"type": if counter() % 2 == 0 { "even" } else { "odd" }}}'
pipeline:
  processors:
    - metric:
        type: counter
        name: docs_seen
        labels:
          type: '\${! json("doc.type") }'
output:
  stdout: {}
`,
    },
    {
      title: 'Gauge a field of each message',
      config: `input:
  generate:
    count: 3
    interval: ''
    mapping: 'root = {"foo": {"size": counter() * 10}}'
pipeline:
  processors:
    - metric:
        type: gauge
        name: foo_size
        value: '\${! json("foo.size") }'
output:
  stdout: {}
`,
    },
  ],
  lint: (config) => (config.name === '' ? [EMPTY_NAME] : []),
  build: (config, ctx): Processor => {
    const type = TYPES[config.type.toLowerCase()];
    if (!type) throw new ConfigError(`metric type unrecognised: ${config.type}`);
    // Also a lint; kept so a config built without linting is refused too.
    if (config.name === '') throw new ConfigError(EMPTY_NAME);
    const labels = Object.entries(config.labels ?? {})
      .filter((entry): entry is [string, Interpolation] => entry[1] !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return new MetricProcessor(
      type,
      ctx.metrics,
      config.name,
      config.value,
      labels,
      processorErrorLog(ctx.logger),
    );
  },
});
