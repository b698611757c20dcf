// What nekton runs of the reference's metrics exporters and tracers, and which of their fields it
// cannot honour yet. Lint refuses the rest, so a config that lints does what it says.
import type { FieldSpec } from './spec.js';

/** The metrics types the service builds (src/metrics/registry.ts METRICS_TYPES; a test compares). */
export const RUNNABLE_METRICS: readonly string[] = [
  'prometheus',
  'json_api',
  'none',
  'statsd',
  'influxdb',
  'logger',
  'open_telemetry_collector',
];

/** The tracers src/tracing builds (a test compares). */
export const RUNNABLE_TRACERS: readonly string[] = ['none', 'open_telemetry_collector', 'jaeger'];

/** Fields a runnable exporter ignores: lint refuses any value but the default. */
const IGNORED_FIELDS: Record<string, Record<string, string>> = {
  'metrics/prometheus': {
    use_histogram_timing: 'timers are exported as summaries only',
    histogram_buckets: 'timers are exported as summaries only',
    summary_quantiles_objectives: 'summaries have the quantiles 0.5, 0.9 and 0.99',
    add_go_metrics: 'nekton is not a Go program (add_process_metrics gives Node.js series)',
    push_url: 'pushing to a Prometheus push gateway is not implemented',
    push_interval: 'pushing to a Prometheus push gateway is not implemented',
    push_job_name: 'pushing to a Prometheus push gateway is not implemented',
    push_basic_auth: 'pushing to a Prometheus push gateway is not implemented',
    file_output_path: 'writing the metrics to a file is not implemented',
  },
  'tracer/jaeger': {
    agent_address:
      "Jaeger's UDP agent protocol is not spoken: set collector_url to the collector's OTLP/HTTP endpoint",
  },
  'metrics/influxdb': {
    tls: 'TLS settings are not implemented (an https:// url uses the system CAs)',
    include: 'runtime and GC series are Go runtime metrics',
  },
};

/** Checks of a runnable exporter or tracer's settings beyond its fields' types. */
const SETTINGS_CHECKS: Record<string, (settings: Record<string, unknown>) => string[]> = {
  'tracer/open_telemetry_collector': (settings) => otlpEndpointCheck('tracer', settings),
  'metrics/open_telemetry_collector': (settings) => otlpEndpointCheck('metrics', settings),
  'tracer/jaeger': (settings) =>
    settings.collector_url
      ? []
      : [
          'tracer jaeger needs collector_url: nekton sends OTLP/HTTP to the collector (e.g. http://localhost:4318)',
        ],
};

/** An OTLP exporter with no `http` or `grpc` endpoint would send nothing. */
function otlpEndpointCheck(kind: string, settings: Record<string, unknown>): string[] {
  const count = (list: unknown) => (Array.isArray(list) ? list.length : 0);
  if (count(settings.http) + count(settings.grpc) > 0) return [];
  return [`${kind} open_telemetry_collector has no endpoint: list at least one under http or grpc`];
}

/** Duration fields of the runnable exporters, checked at their line instead of failing at start. */
export const DURATION_FIELDS: readonly string[] = [
  'metrics.statsd.flush_period',
  'metrics.influxdb.interval',
  'metrics.influxdb.ping_interval',
  'metrics.influxdb.timeout',
  'metrics.logger.push_interval',
  'tracer.jaeger.flush_interval',
];

/** Lint messages for a normalised exporter or tracer config. */
export function observabilityLint(
  kind: 'metrics' | 'tracer',
  name: string,
  fields: readonly FieldSpec[],
): (config: unknown) => string[] {
  const runnable = kind === 'metrics' ? RUNNABLE_METRICS : RUNNABLE_TRACERS;
  if (!runnable.includes(name)) {
    const message =
      kind === 'metrics'
        ? `metrics type ${name} is not supported by nekton (use one of ${RUNNABLE_METRICS.join(', ')})`
        : `tracer ${name} is not implemented by nekton yet: the run would send no traces (use tracer: none)`;
    return () => [message];
  }
  const ignored = IGNORED_FIELDS[`${kind}/${name}`] ?? {};
  const check = SETTINGS_CHECKS[`${kind}/${name}`];
  return (config) => {
    const settings = (config ?? {}) as Record<string, unknown>;
    const messages: string[] = check ? check(settings) : [];
    for (const [field, why] of Object.entries(ignored)) {
      const spec = fields.find((f) => f.name === field);
      if (sameValue(settings[field], spec)) continue;
      messages.push(`field ${field} of ${kind} ${name} is not supported by nekton: ${why}; remove it`);
    }
    return messages;
  };
}

/** Equal as config values: absent, or the same as the default the normaliser fills in. */
function sameValue(value: unknown, spec: FieldSpec | undefined): boolean {
  if (value === undefined || spec === undefined) return true;
  return JSON.stringify(value) === JSON.stringify(defaultOf(spec));
}

/** The value the normaliser gives an absent field: its default, or its children's defaults. */
function defaultOf(spec: FieldSpec): unknown {
  if (spec.default !== undefined) return spec.default;
  if (spec.kind === 'array') return [];
  if (spec.kind === 'map') return {};
  if (!spec.children) return undefined;
  return Object.fromEntries(spec.children.map((child) => [child.name, defaultOf(child)]));
}
