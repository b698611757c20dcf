// Metrics that record nothing: for `metrics: none` and for tests that do not look at them.
import type { MetricsProvider } from './builder.js';
import type { Counter, Gauge, MetricsScope, Timer } from './context.js';

const counter: Counter = { inc: () => undefined };
const timer: Timer = { observeNs: () => undefined, observeNsTimes: () => undefined };
const gauge: Gauge = { set: () => undefined };

export const noopScope: MetricsScope = {
  counter: () => counter,
  timer: () => timer,
  gauge: () => gauge,
  child: () => noopScope,
};

export const noopMetrics: MetricsProvider = { scope: () => noopScope };
