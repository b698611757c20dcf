// The service's tracer, from its `tracer` section: OpenTelemetry's SDK with OTLP exporters (loaded
// by index.ts only when a tracer is configured).
//   open_telemetry_collector: every `http` endpoint gets OTLP/HTTP (JSON to <address>/v1/traces),
//     every `grpc` endpoint OTLP/gRPC; `sampling` a parent-based trace-id ratio; `tags` resource
//     attributes beside `service.name`.
//   jaeger: Jaeger's own Thrift protocols are not spoken (OpenTelemetry JS dropped its Jaeger
//     exporter); `collector_url` is taken as the collector's OTLP/HTTP endpoint (Jaeger collectors
//     accept OTLP since 1.35), `sampler_param` as Jaeger's const sampler (0 keeps no trace, any other value every one),
//     `flush_interval` as the batch delay. Lint refuses `agent_address` (the UDP agent).

import { OTLPTraceExporter as GrpcTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as HttpTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  type SpanExporter,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
import type { Logger } from 'pino';
import { type EndpointSettings, endpointUrl } from '../base/otlp_endpoints.js';
import { parseDurationMs } from '../config/duration.js';
import type { ComponentConfig } from '../engine/context.js';
import type { EngineTracing } from '../engine/tracing.js';
import { logOtelDiagnostics } from '../metrics/push/otel_diag.js';
import { OtelEngineTracing } from './components.js';

export interface ServiceTracer {
  readonly tracing: EngineTracing;
  /** Sends the spans still buffered and stops the exporters. */
  close(): Promise<void>;
}

interface CollectorSettings {
  service: string;
  http: EndpointSettings[];
  grpc: EndpointSettings[];
  tags: Record<string, string>;
  sampling: { enabled: boolean; ratio?: number };
}

interface JaegerSettings {
  collector_url: string;
  sampler_param: number;
  tags: Record<string, string>;
  flush_interval?: string;
}

/** The tracer the section names; null for one nekton does not build. */
export function buildTracer(section: ComponentConfig, logger: Logger): ServiceTracer | null {
  switch (section.type) {
    case 'open_telemetry_collector': {
      const s = section.config as CollectorSettings;
      const exporters: SpanExporter[] = [
        ...s.http.map((e) => new HttpTraceExporter({ url: endpointUrl(e, 'localhost:4318', '/v1/traces') })),
        ...s.grpc.map((e) => new GrpcTraceExporter({ url: endpointUrl(e, 'localhost:4317') })),
      ];
      const sampler = s.sampling.enabled
        ? new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(s.sampling.ratio ?? 1) })
        : new AlwaysOnSampler();
      return providerTracer(s.service, s.tags, sampler, exporters, undefined, logger);
    }
    case 'jaeger': {
      const s = section.config as JaegerSettings;
      const exporter = new HttpTraceExporter({
        url: endpointUrl({ address: s.collector_url }, '', '/v1/traces'),
      });
      const sampler = s.sampler_param !== 0 ? new AlwaysOnSampler() : new AlwaysOffSampler();
      const delay = s.flush_interval ? parseDurationMs(s.flush_interval) : undefined;
      return providerTracer('nekton', s.tags, sampler, [exporter], delay, logger);
    }
    default:
      // Lint refuses every other tracer; a config that got here without lint gets no tracing.
      logger.warn(`tracer ${section.type} is not implemented: no traces are sent`);
      return null;
  }
}

function providerTracer(
  service: string,
  tags: Record<string, string>,
  sampler: Sampler,
  exporters: SpanExporter[],
  delayMs: number | undefined,
  logger: Logger,
): ServiceTracer {
  logOtelDiagnostics(logger);
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ ...tags, 'service.name': service }),
    sampler,
    spanProcessors: exporters.map(
      (exporter) =>
        new BatchSpanProcessor(exporter, delayMs === undefined ? {} : { scheduledDelayMillis: delayMs }),
    ),
  });
  const tracer = provider.getTracer('nekton');
  return {
    tracing: new OtelEngineTracing(tracer),
    async close() {
      await provider.shutdown().catch((err: unknown) => logger.warn(`tracer: ${String(err)}`));
    },
  };
}
