// `metrics: open_telemetry_collector`: nekton's series as OTLP metrics, pushed every 60 s (the
// OpenTelemetry SDK's default period; the reference has no interval field) and once more at close,
// to each `http` endpoint as OTLP/HTTP (JSON to <address>/v1/metrics) and each `grpc` one as
// OTLP/gRPC. Counters are cumulative monotonic sums, gauges gauges, timers histograms (count and
// sum in nanoseconds, no buckets). The SDK is loaded only when this exporter is configured.
import type { Logger } from 'pino';
import type { EndpointSettings } from '../../base/otlp_endpoints.js';
import { errorMessage } from '../../engine/errors.js';
import type { MetricFamily } from '../family.js';
import type { PushSchedule } from './schedule.js';

export interface OtelMetricsSettings {
  service: string;
  http: EndpointSettings[];
  grpc: EndpointSettings[];
  tags: Record<string, string>;
}

/** How often the series are pushed. */
export const OTEL_PUSH_INTERVAL_MS = 60_000;

export function otelExporter(
  settings: OtelMetricsSettings,
  families: () => Iterable<MetricFamily>,
  logger: Logger | undefined,
): PushSchedule {
  const started = import('./otel_sdk.js').then((sdk) => sdk.startOtelMetrics(settings, families, logger));
  started.catch((err) => logger?.warn(`open_telemetry_collector metrics: ${errorMessage(err)}`));
  return {
    async close() {
      const exporter = await started.catch(() => null);
      await exporter?.close();
    },
  };
}
