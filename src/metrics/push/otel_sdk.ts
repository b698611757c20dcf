// The OpenTelemetry side of `metrics: open_telemetry_collector` (see otel.ts): a metric producer
// that reads nekton's series at each collection, on a MeterProvider with one periodic reader per
// endpoint.
import type { Attributes, HrTime } from '@opentelemetry/api';
import { ValueType } from '@opentelemetry/api';
import { OTLPMetricExporter as GrpcMetricExporter } from '@opentelemetry/exporter-metrics-otlp-grpc';
import { OTLPMetricExporter as HttpMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AggregationTemporality,
  type CollectionResult,
  DataPointType,
  MeterProvider,
  type MetricData,
  type MetricProducer,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
} from '@opentelemetry/sdk-metrics';
import type { Logger } from 'pino';
import { endpointUrl } from '../../base/otlp_endpoints.js';
import { errorMessage } from '../../engine/errors.js';
import type { MetricFamily } from '../family.js';
import { OTEL_PUSH_INTERVAL_MS, type OtelMetricsSettings } from './otel.js';
import { logOtelDiagnostics } from './otel_diag.js';

function hrTime(ms: number): HrTime {
  return [Math.floor(ms / 1000), Math.round((ms % 1000) * 1e6)];
}

/** Reads every series at collection time: nothing is recorded twice. */
class SeriesProducer implements MetricProducer {
  private readonly start = hrTime(Date.now());

  constructor(private readonly families: () => Iterable<MetricFamily>) {}

  async collect(): Promise<CollectionResult> {
    const now = hrTime(Date.now());
    const metrics: MetricData[] = [];
    for (const family of this.families()) {
      const descriptor = {
        name: family.name,
        description: family.help,
        unit: '',
        valueType: ValueType.DOUBLE,
      };
      const points = [...family.series.values()];
      if (points.length === 0) continue;
      const time = (labels: Attributes) => ({ startTime: this.start, endTime: now, attributes: labels });
      if (family.kind === 'counter' || family.kind === 'gauge') {
        const dataPoints = points.map((s) => ({
          ...time(s.labels),
          value: s.kind === 'timer' ? 0 : s.value,
        }));
        metrics.push(
          family.kind === 'counter'
            ? {
                descriptor,
                aggregationTemporality: AggregationTemporality.CUMULATIVE,
                dataPointType: DataPointType.SUM,
                isMonotonic: true,
                dataPoints,
              }
            : {
                descriptor,
                aggregationTemporality: AggregationTemporality.CUMULATIVE,
                dataPointType: DataPointType.GAUGE,
                dataPoints,
              },
        );
        continue;
      }
      metrics.push({
        descriptor: { ...descriptor, unit: 'ns' },
        aggregationTemporality: AggregationTemporality.CUMULATIVE,
        dataPointType: DataPointType.HISTOGRAM,
        dataPoints: points.map((s) => {
          const h = s.kind === 'timer' ? s.histogram : null;
          const count = h?.count ?? 0;
          return {
            ...time(s.labels),
            value: { buckets: { boundaries: [], counts: [count] }, count, sum: h?.sum ?? 0 },
          };
        }),
      });
    }
    return {
      resourceMetrics: {
        resource: resourceFromAttributes({}),
        scopeMetrics: [{ scope: { name: 'nekton' }, metrics }],
      },
      errors: [],
    };
  }
}

export function startOtelMetrics(
  settings: OtelMetricsSettings,
  families: () => Iterable<MetricFamily>,
  logger: Logger | undefined,
): { close(): Promise<void> } {
  logOtelDiagnostics(logger);
  const exporters: PushMetricExporter[] = [
    ...settings.http.map(
      (e) => new HttpMetricExporter({ url: endpointUrl(e, 'localhost:4318', '/v1/metrics') }),
    ),
    ...settings.grpc.map((e) => new GrpcMetricExporter({ url: endpointUrl(e, 'localhost:4317') })),
  ];
  const readers = exporters.map(
    (exporter) =>
      new PeriodicExportingMetricReader({
        exporter,
        exportIntervalMillis: OTEL_PUSH_INTERVAL_MS,
        metricProducers: [new SeriesProducer(families)],
      }),
  );
  const provider = new MeterProvider({
    resource: resourceFromAttributes({ ...settings.tags, 'service.name': settings.service }),
    readers,
  });
  return {
    async close() {
      // shutdown() collects and exports once more, so the last counts leave.
      await provider
        .shutdown()
        .catch((err) => logger?.warn(`open_telemetry_collector metrics: ${errorMessage(err)}`));
    },
  };
}
