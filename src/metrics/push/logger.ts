// `metrics: logger`: each counter and timer as an info log line, every push_interval (when set)
// and at shutdown; `flush_metrics` resets them after each print, as the reference does.
import type { Logger } from 'pino';
import { parseDurationMs } from '../../config/duration.js';
import type { MetricFamily } from '../family.js';
import { type PushSchedule, schedulePush } from './schedule.js';

export interface LoggerMetricsSettings {
  push_interval?: string;
  flush_metrics: boolean;
}

export function loggerExporter(
  settings: LoggerMetricsSettings,
  families: () => Iterable<MetricFamily>,
  logger: Logger | undefined,
): PushSchedule {
  const print = () => {
    if (!logger) return;
    for (const family of families()) {
      for (const series of family.series.values()) {
        if (series.kind === 'counter') {
          logger.info({ name: family.name, value: series.value, ...series.labels }, 'Counter metric');
          if (settings.flush_metrics) series.value = 0;
        } else if (series.kind === 'timer') {
          const h = series.histogram;
          const [p50, p90, p99] = [h.quantile(0.5), h.quantile(0.9), h.quantile(0.99)];
          logger.info({ name: family.name, p50, p90, p99, ...series.labels }, 'Timing metric');
          if (settings.flush_metrics) h.reset();
        }
      }
    }
  };
  const interval = settings.push_interval ? parseDurationMs(settings.push_interval) : undefined;
  return schedulePush('metrics logger', interval, print, logger);
}
