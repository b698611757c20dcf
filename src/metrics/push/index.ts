// The exporters that push series out on their own schedule, by metrics type.
import type { Logger } from 'pino';
import type { MetricFamily } from '../family.js';
import { type InfluxdbSettings, influxdbExporter } from './influxdb.js';
import { type LoggerMetricsSettings, loggerExporter } from './logger.js';
import { type OtelMetricsSettings, otelExporter } from './otel.js';
import type { PushSchedule } from './schedule.js';
import { type StatsdSettings, statsdExporter } from './statsd.js';

export type { PushSchedule } from './schedule.js';

export const PUSH_TYPES = ['statsd', 'influxdb', 'logger', 'open_telemetry_collector'] as const;
export type PushType = (typeof PUSH_TYPES)[number];

/** Starts the exporter of `type` with its (normalised) settings. */
export function startPushExporter(
  type: PushType,
  settings: unknown,
  families: () => Iterable<MetricFamily>,
  logger: Logger | undefined,
): PushSchedule {
  switch (type) {
    case 'statsd':
      return statsdExporter(settings as StatsdSettings, families, logger);
    case 'influxdb':
      return influxdbExporter(settings as InfluxdbSettings, families, logger);
    case 'logger':
      return loggerExporter(settings as LoggerMetricsSettings, families, logger);
    case 'open_telemetry_collector':
      return otelExporter(settings as OtelMetricsSettings, families, logger);
  }
}
