// All series of one metric name. Shaped like a prom-client metric (`name`, `get()`) so prom-client's
// Registry does the exposition format, while the hot path stays in our plain series objects.
import { createSeries, type MetricKind, type Series } from './series.js';

export const SUMMARY_QUANTILES = [0.5, 0.9, 0.99] as const;

interface ExportedValue {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
}

export interface ExportedMetric {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'summary';
  values: ExportedValue[];
  aggregator: 'sum';
}

export class MetricFamily {
  readonly series = new Map<string, Series>();
  readonly help: string;

  constructor(
    readonly name: string,
    readonly kind: MetricKind,
  ) {
    this.help = `${kind === 'timer' ? 'Timing' : kind === 'gauge' ? 'Gauge' : 'Counter'} metric ${name}`;
  }

  /** The series for these labels, created once and shared by every caller with the same labels. */
  seriesFor(labels: Record<string, string>, rendered: string): Series {
    let series = this.series.get(rendered);
    if (series === undefined) {
      series = createSeries(this.kind, labels, rendered);
      this.series.set(rendered, series);
    }
    return series;
  }

  /** prom-client's metric contract: timers export as summaries (quantiles, _sum, _count) in ns. */
  get(): ExportedMetric {
    const values: ExportedValue[] = [];
    for (const series of this.series.values()) {
      if (series.kind !== 'timer') {
        values.push({ value: series.value, labels: series.labels });
        continue;
      }
      const h = series.histogram;
      for (const q of SUMMARY_QUANTILES)
        values.push({ value: h.quantile(q), labels: { ...series.labels, quantile: q } });
      values.push({ metricName: `${this.name}_sum`, value: h.sum, labels: series.labels });
      values.push({ metricName: `${this.name}_count`, value: h.count, labels: series.labels });
    }
    const type = this.kind === 'timer' ? 'summary' : this.kind;
    return { name: this.name, help: this.help, type, values, aggregator: 'sum' };
  }
}
