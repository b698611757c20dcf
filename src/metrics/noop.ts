// Metrics that record nothing, for `metrics: none` outside streams.
import type { Counter, Gauge, MetricsScope, Timer } from '../engine/context.js';

const NOOP_COUNTER: Counter = { inc() {} };
const NOOP_TIMER: Timer = { observeNs() {}, observeNsTimes() {} };
const NOOP_GAUGE: Gauge = { set() {} };

export const NOOP_SCOPE: MetricsScope = {
  counter: () => NOOP_COUNTER,
  timer: () => NOOP_TIMER,
  gauge: () => NOOP_GAUGE,
  child: () => NOOP_SCOPE,
};
