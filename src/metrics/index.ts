export type {
  BaseLabels,
  MetricsRegistry,
  MetricsRegistryOptions,
  MetricsType,
  StreamStats,
  TimerQuantiles,
} from './registry.js';
export { createMetricsRegistry, METRICS_TYPES } from './registry.js';
