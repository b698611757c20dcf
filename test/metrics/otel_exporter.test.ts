// `metrics: open_telemetry_collector` as a user runs it (built CLI): the series reach a local
// OTLP/HTTP receiver at shutdown, counters as cumulative sums with nekton's labels.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runNekton, tempDir } from '../helpers/cli.js';
import { waitFor } from '../helpers/kit.js';
import { attributesOf, OtlpReceiver } from '../tracing/otlp_receiver.js';

interface KeyValue {
  key: string;
  value: Record<string, unknown>;
}
interface Point {
  asDouble?: number;
  asInt?: number;
  count?: number | string;
  sum?: number;
  attributes?: KeyValue[];
}
interface MetricsRequest {
  resourceMetrics: Array<{
    resource?: { attributes?: KeyValue[] };
    scopeMetrics: Array<{
      metrics: Array<{
        name: string;
        sum?: { dataPoints: Point[]; isMonotonic?: boolean };
        gauge?: { dataPoints: Point[] };
        histogram?: { dataPoints: Point[] };
      }>;
    }>;
  }>;
}

describe('metrics: open_telemetry_collector', () => {
  it('pushes counters, timers and the mapping-renamed series over OTLP/HTTP', async () => {
    const receiver = await OtlpReceiver.start();
    const config = join(tempDir('nekton-otel-metrics-'), 'c.yaml');
    writeFileSync(
      config,
      [
        'http: {enabled: false}',
        'logger: {level: WARN}',
        'metrics:',
        '  mapping: root = if this == "input_received" { "n_" + this } else { this }',
        '  open_telemetry_collector:',
        '    service: nekton-metrics',
        `    http: [{address: "127.0.0.1:${receiver.port}"}]`,
        '    tags: {region: here}',
        'input:',
        '  generate: {mapping: "root = 1", count: 5, interval: ""}',
        'pipeline:',
        '  processors: [ {mapping: root = this} ]',
        'output:',
        '  drop: {}',
      ].join('\n'),
    );
    try {
      const run = await runNekton(['-c', config]);
      assert.equal(run.code, 0, run.stderr);
      const bodies = await waitFor(() => receiver.bodies.get('/v1/metrics'), { message: 'a metrics export' });
      const request = bodies.at(-1) as MetricsRequest;
      const resource = attributesOf(request.resourceMetrics[0]!.resource?.attributes);
      assert.equal(resource['service.name'], 'nekton-metrics');
      assert.equal(resource.region, 'here');
      const metrics = new Map(
        request.resourceMetrics
          .flatMap((rm) => rm.scopeMetrics.flatMap((sm) => sm.metrics))
          .map((m) => [m.name, m]),
      );
      const sent = metrics.get('output_sent');
      assert.equal(sent?.sum?.isMonotonic, true);
      assert.equal(sent?.sum?.dataPoints[0]?.asDouble, 5);
      assert.equal(attributesOf(sent?.sum?.dataPoints[0]?.attributes).path, 'root.output');
      assert.equal(metrics.get('n_input_received')?.sum?.dataPoints[0]?.asDouble, 5);
      assert.equal(metrics.has('input_received'), false);
      const latency = metrics.get('processor_latency_ns')?.histogram?.dataPoints[0];
      assert.ok(latency, [...metrics.keys()].join(', '));
      assert.ok(Number(latency.count) >= 1);
    } finally {
      await receiver.close();
    }
  });
});
