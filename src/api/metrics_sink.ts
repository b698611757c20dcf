// `StreamBuilder.setMetrics`: the application's own metrics library receives every component
// metric, each with the component's `label` and `path` among its labels.
import type { MetricsProvider } from '../engine/builder.js';
import type { MetricsScope } from '../engine/context.js';

export type MetricLabels = Record<string, string>;

/** What an application gives setMetrics(); called once per metric and label set, then cached. */
export interface MetricsSink {
  counter(name: string, labels: MetricLabels): { inc(n?: number): void };
  /** Durations arrive in nanoseconds. */
  timer(name: string, labels: MetricLabels): { observeNs(ns: number): void };
  gauge(name: string, labels: MetricLabels): { set(value: number): void };
}

export function metricsProvider(sink: MetricsSink): MetricsProvider {
  return { scope: (labels) => scope(sink, { label: labels.label, path: labels.path }) };
}

function scope(sink: MetricsSink, base: MetricLabels): MetricsScope {
  const labelled = (extra?: MetricLabels) => ({ ...base, ...extra });
  return {
    counter: (name, extra) => sink.counter(name, labelled(extra)),
    timer(name, extra) {
      const timer = sink.timer(name, labelled(extra));
      return {
        observeNs: (ns) => timer.observeNs(ns),
        observeNsTimes: (ns, times) => {
          for (let i = 0; i < times; i++) timer.observeNs(ns);
        },
      };
    },
    gauge: (name, extra) => sink.gauge(name, labelled(extra)),
    child: (label, path) => scope(sink, { ...base, label, path }),
  };
}
