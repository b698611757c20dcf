// What changed in each series since the last push: statsd sends increments, not totals.
import type { Series } from '../series.js';

interface Sent {
  value: number;
  count: number;
  sum: number;
}

export interface SeriesDelta {
  /** Counters: the increase; gauges: the value (only when changed); timers: observations. */
  value: number;
  /** Timers only: how many observations and their sum since the last push. */
  count: number;
  sum: number;
}

export class DeltaTracker {
  private readonly sent = new WeakMap<Series, Sent>();

  /** The change since the last call for this series, or undefined when nothing changed. */
  take(series: Series): SeriesDelta | undefined {
    let last = this.sent.get(series);
    if (!last) {
      last = { value: 0, count: 0, sum: 0 };
      this.sent.set(series, last);
      if (series.kind === 'gauge') last.value = Number.NaN; // a gauge is sent once even at 0
    }
    if (series.kind === 'counter') {
      const delta = series.value - last.value;
      last.value = series.value;
      return delta === 0 ? undefined : { value: delta, count: 0, sum: 0 };
    }
    if (series.kind === 'gauge') {
      if (series.value === last.value) return undefined;
      last.value = series.value;
      return { value: series.value, count: 0, sum: 0 };
    }
    const h = series.histogram;
    const count = h.count - last.count;
    const sum = h.sum - last.sum;
    last.count = h.count;
    last.sum = h.sum;
    return count === 0 ? undefined : { value: sum / count, count, sum };
  }
}
