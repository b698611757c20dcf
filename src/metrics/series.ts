// One labelled series of a metric. Components hold these directly, so `inc`/`set`/`observeNs` are a
// field update: no label lookup or allocation per call.
import type { Counter, Gauge, Timer } from '../engine/context.js';
import { LogHistogram } from './log-histogram.js';

export type MetricKind = 'counter' | 'gauge' | 'timer';

interface SeriesIdentity {
  /** Label names sorted; values as given. */
  readonly labels: Record<string, string>;
  /** `{a="x",...}`: identity within the metric and the suffix of the stats key. */
  readonly renderedLabels: string;
}

export class CounterSeries implements Counter, SeriesIdentity {
  readonly kind = 'counter';
  value = 0;
  constructor(
    readonly labels: Record<string, string>,
    readonly renderedLabels: string,
  ) {}
  inc(n = 1): void {
    this.value += n;
  }
}

export class GaugeSeries implements Gauge, SeriesIdentity {
  readonly kind = 'gauge';
  value = 0;
  constructor(
    readonly labels: Record<string, string>,
    readonly renderedLabels: string,
  ) {}
  set(value: number): void {
    this.value = value;
  }
}

export class TimerSeries implements Timer, SeriesIdentity {
  readonly kind = 'timer';
  readonly histogram = new LogHistogram();
  constructor(
    readonly labels: Record<string, string>,
    readonly renderedLabels: string,
  ) {}
  observeNs(ns: number): void {
    this.histogram.observe(ns);
  }
  observeNsTimes(ns: number, times: number): void {
    this.histogram.observe(ns, times);
  }
}

export type Series = CounterSeries | GaugeSeries | TimerSeries;

export function createSeries(kind: MetricKind, labels: Record<string, string>, rendered: string): Series {
  if (kind === 'counter') return new CounterSeries(labels, rendered);
  if (kind === 'gauge') return new GaugeSeries(labels, rendered);
  return new TimerSeries(labels, rendered);
}
