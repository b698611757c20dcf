// Every metrics exporter and tracer the reference names either runs in nekton or is refused by
// lint; fields a runnable exporter would ignore are refused too.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatApiLint } from '../../src/config/lint.js';
import { lintServiceConfig } from '../../src/config/lint_config.js';
import { normaliseSettings } from '../../src/config/normalise.js';
import { OBSERVABILITY_COMPONENTS } from '../../src/config/observability_components.js';
import { RUNNABLE_METRICS, RUNNABLE_TRACERS } from '../../src/config/observability_support.js';
import { REFERENCE } from '../../src/config/reference_fields.js';
import { parseYaml } from '../../src/config/yaml_document.js';
import { createMetricsRegistry, METRICS_TYPES } from '../../src/metrics/index.js';
import { lintOptions, provider } from './helpers.js';

const lint = (text: string) =>
  lintServiceConfig(parseYaml(text), { ...lintOptions, withStreamSections: false }).map(formatApiLint);

/** Just enough of each component's required fields for its own lint to be the only one. */
const REQUIRED: Record<string, string> = {
  'metrics/statsd': '{address: "127.0.0.1:8125"}',
  'metrics/influxdb': '{url: "http://127.0.0.1:8086", db: d}',
  'tracer/gcp_cloudtrace': '{project: p}',
  'tracer/redpanda': '{seed_brokers: [localhost:9092]}',
  'tracer/jaeger': '{collector_url: "http://127.0.0.1:4318"}',
  'tracer/open_telemetry_collector': '{http: [{address: "127.0.0.1:4318"}]}',
  'metrics/open_telemetry_collector': '{http: [{address: "127.0.0.1:9"}]}', // closed: refused at once
};

describe('observability lint', () => {
  it('lets each metrics type that runs lint clean, and builds it', async () => {
    for (const name of Object.keys(REFERENCE.metrics)) {
      if (!RUNNABLE_METRICS.includes(name)) continue;
      const settings = REQUIRED[`metrics/${name}`] ?? '{}';
      assert.deepEqual(lint(`metrics:\n  ${name}: ${settings}\n`), [], name);
      const schema = OBSERVABILITY_COMPONENTS.find((c) => c.kind === 'metrics' && c.name === name);
      assert.ok(schema);
      const normalised = normaliseSettings(
        schema,
        parseYaml(settings).doc.toJS(),
        { docPath: [], configPath: 'root.metrics' },
        { provider },
      );
      const registry = createMetricsRegistry({ type: name, settings: normalised, exported: false });
      assert.equal(registry.type, name);
      await registry.close();
    }
  });

  it('refuses, by name, every metrics type and tracer nekton does not run', () => {
    const refused: string[] = [];
    for (const name of Object.keys(REFERENCE.metrics)) {
      if (RUNNABLE_METRICS.includes(name)) continue;
      const lints = lint(`metrics:\n  ${name}: ${REQUIRED[`metrics/${name}`] ?? '{}'}\n`);
      assert.ok(
        lints.some((l) => l.includes(`metrics type ${name} is not supported by nekton`)),
        `${name}: ${lints.join('; ')}`,
      );
      refused.push(`metrics/${name}`);
    }
    for (const name of Object.keys(REFERENCE.tracer)) {
      const lints = lint(`tracer:\n  ${name}: ${REQUIRED[`tracer/${name}`] ?? '{}'}\n`);
      if (RUNNABLE_TRACERS.includes(name)) {
        assert.deepEqual(lints, [], name);
        continue;
      }
      assert.ok(
        lints.some((l) => l.includes(`tracer ${name} is not implemented by nekton yet`)),
        `${name}: ${lints.join('; ')}`,
      );
      refused.push(`tracer/${name}`);
    }
    assert.deepEqual(refused, ['metrics/aws_cloudwatch', 'tracer/gcp_cloudtrace', 'tracer/redpanda']);
  });

  it('names the same runnable metrics types as the registry builds', () => {
    assert.deepEqual([...RUNNABLE_METRICS].sort(), [...METRICS_TYPES].sort());
  });

  it('refuses fields an exporter would ignore, and accepts them at their defaults', () => {
    assert.deepEqual(
      lint('metrics:\n  prometheus:\n    use_histogram_timing: true\n    file_output_path: /tmp/m\n'),
      [
        '(3,1) field use_histogram_timing of metrics prometheus is not supported by nekton: timers are exported as summaries only; remove it',
        '(3,1) field file_output_path of metrics prometheus is not supported by nekton: writing the metrics to a file is not implemented; remove it',
      ],
    );
    assert.deepEqual(
      lint('metrics:\n  prometheus:\n    use_histogram_timing: false\n    add_process_metrics: true\n'),
      [],
    );
    assert.deepEqual(
      lint('metrics:\n  influxdb:\n    url: http://x:8086\n    db: d\n    include:\n      runtime: 10s\n'),
      [
        '(3,1) field include of metrics influxdb is not supported by nekton: runtime and GC series are Go runtime metrics; remove it',
      ],
    );
  });

  it("refuses a jaeger tracer that names no collector, or Jaeger's UDP agent", () => {
    assert.deepEqual(lint('tracer:\n  jaeger:\n    agent_address: localhost:6831\n'), [
      '(3,1) tracer jaeger needs collector_url: nekton sends OTLP/HTTP to the collector (e.g. http://localhost:4318)',
      "(3,1) field agent_address of tracer jaeger is not supported by nekton: Jaeger's UDP agent protocol is not spoken: set collector_url to the collector's OTLP/HTTP endpoint; remove it",
    ]);
    assert.deepEqual(
      lint('tracer:\n  jaeger:\n    collector_url: http://127.0.0.1:4318\n    flush_interval: 1s\n'),
      [],
    );
  });

  it('refuses an OTLP tracer or exporter with no endpoint', () => {
    assert.deepEqual(lint('tracer:\n  open_telemetry_collector: {service: x}\n'), [
      '(2,1) tracer open_telemetry_collector has no endpoint: list at least one under http or grpc',
    ]);
    assert.deepEqual(lint('metrics:\n  open_telemetry_collector:\n    http: []\n'), [
      '(3,1) metrics open_telemetry_collector has no endpoint: list at least one under http or grpc',
    ]);
  });

  it('checks exporter durations at their line', () => {
    assert.deepEqual(lint('metrics:\n  logger:\n    push_interval: soon\n'), [
      '(3,1) field push_interval: invalid duration "soon": time: invalid duration "soon"',
    ]);
  });
});
