// The tracers as a user runs them (built CLI): spans reach a local OTLP/HTTP receiver with the
// reference's names and parent links, and a W3C traceparent crosses http_server -> pipeline ->
// http_client, so the next server sees the same trace.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { connect } from '@nats-io/transport-node';
import { runNekton, startNekton, tempDir } from '../helpers/cli.js';
import { freePort, NATS_URL, requireService, waitFor } from '../helpers/kit.js';
import { OtlpGrpcReceiver } from './otlp_grpc_receiver.js';
import { OtlpReceiver } from './otlp_receiver.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

function post(port: number, path: string, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('tracer: open_telemetry_collector', () => {
  it('sends a span per component and carries traceparent from http_server to http_client', async () => {
    const receiver = await OtlpReceiver.start();
    const seen: IncomingHttpHeaders[] = [];
    const next = createServer((req, res) => {
      seen.push(req.headers);
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    await new Promise<void>((r) => next.listen(0, '127.0.0.1', r));
    const nextPort = (next.address() as AddressInfo).port;
    const port = await freePort();
    const config = join(tempDir('nekton-tracer-'), 'c.yaml');
    writeFileSync(
      config,
      [
        'http: {enabled: false}',
        'logger: {level: WARN}',
        'tracer:',
        '  open_telemetry_collector:',
        '    service: nekton-test',
        `    http: [{address: "127.0.0.1:${receiver.port}"}]`,
        '    tags: {deployment: test}',
        'input:',
        '  label: from_caller',
        `  http_server: {address: "127.0.0.1:${port}", path: /in}`,
        'pipeline:',
        '  processors:',
        '    - mapping: root = content().uppercase()',
        'output:',
        '  http_client:',
        `    url: http://127.0.0.1:${nextPort}/next`,
        '    metadata: {include_prefixes: [traceparent]}',
      ].join('\n'),
    );
    const nekton = startNekton(['-c', config]);
    try {
      const status = await waitFor(
        () => post(port, '/in', 'hello', { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01` }).catch(() => 0),
        { message: 'the http_server input', timeoutMs: 15_000 },
      );
      assert.equal(status, 200, nekton.output());
      await waitFor(() => seen.length > 0, { message: 'the request to the next server' });
      nekton.kill('SIGTERM');
      await new Promise((r) => nekton.once('exit', r));
      // The tracer flushes its batch at shutdown.
      const spans = await waitFor(() => (receiver.spans().length >= 3 ? receiver.spans() : undefined), {
        message: 'three spans at the receiver',
      });
      const byName = new Map(spans.map((s) => [s.name, s]));
      assert.deepEqual([...byName.keys()].sort(), ['input_http_server', 'mapping', 'output_http_client']);
      const input = byName.get('input_http_server')!;
      const mapping = byName.get('mapping')!;
      const output = byName.get('output_http_client')!;
      for (const span of spans) assert.equal(span.traceId, TRACE_ID, span.name);
      assert.equal(input.parentSpanId, CALLER_SPAN);
      assert.equal(mapping.parentSpanId, input.spanId);
      assert.equal(output.parentSpanId, input.spanId);
      assert.equal(input.attributes['nekton.component.label'], 'from_caller');
      assert.equal(input.attributes['nekton.component.path'], 'root.input');
      assert.equal(mapping.attributes['nekton.component.path'], 'root.pipeline.processors.0');
      assert.equal(input.resource['service.name'], 'nekton-test');
      assert.equal(input.resource.deployment, 'test');
      // The next hop is a child of the output's span, in the caller's trace.
      assert.equal(seen[0]!.traceparent, `00-${TRACE_ID}-${output.spanId}-01`);
    } finally {
      nekton.kill('SIGTERM');
      next.close();
      await receiver.close();
    }
  });

  it('starts a new trace for a message that came with none, and honours sampling ratio 0', async () => {
    const receiver = await OtlpReceiver.start();
    const dir = tempDir('nekton-tracer-');
    const stream = [
      'input:',
      '  generate: {mapping: "root = 1", count: 2, interval: ""}',
      'output:',
      '  drop: {}',
    ];
    const traced = join(dir, 'traced.yaml');
    writeFileSync(
      traced,
      [
        'http: {enabled: false}',
        'tracer:',
        `  open_telemetry_collector: {http: [{address: "127.0.0.1:${receiver.port}"}]}`,
        ...stream,
      ].join('\n'),
    );
    const run = await runNekton(['-c', traced]);
    assert.equal(run.code, 0, run.stderr);
    const spans = await waitFor(() => (receiver.spans().length >= 4 ? receiver.spans() : undefined), {
      message: 'four spans',
    });
    const inputs = spans.filter((s) => s.name === 'input_generate');
    assert.equal(inputs.length, 2);
    assert.notEqual(inputs[0]!.traceId, inputs[1]!.traceId);
    for (const input of inputs) assert.equal(input.parentSpanId ?? '', '');
    assert.equal(inputs[0]!.resource['service.name'], 'benthos'); // the reference's default
    const sampledOut = join(dir, 'sampled.yaml');
    writeFileSync(
      sampledOut,
      [
        'http: {enabled: false}',
        'tracer:',
        '  open_telemetry_collector:',
        `    http: [{address: "127.0.0.1:${receiver.port}"}]`,
        '    sampling: {enabled: true, ratio: 0}',
        ...stream,
      ].join('\n'),
    );
    const before = receiver.spans().length;
    const second = await runNekton(['-c', sampledOut]);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(receiver.spans().length, before);
    await receiver.close();
  });
});

describe('tracer: jaeger', () => {
  it('sends OTLP/HTTP to collector_url', async () => {
    const receiver = await OtlpReceiver.start();
    const config = join(tempDir('nekton-tracer-'), 'c.yaml');
    writeFileSync(
      config,
      [
        'http: {enabled: false}',
        'tracer:',
        `  jaeger: {collector_url: "http://127.0.0.1:${receiver.port}", flush_interval: 100ms, tags: {team: a}}`,
        'input:',
        '  generate: {mapping: "root = 1", count: 1, interval: ""}',
        'output:',
        '  drop: {}',
      ].join('\n'),
    );
    const run = await runNekton(['-c', config]);
    assert.equal(run.code, 0, run.stderr);
    const spans = await waitFor(() => (receiver.spans().length >= 2 ? receiver.spans() : undefined), {
      message: 'two spans',
    });
    assert.deepEqual(spans.map((s) => s.name).sort(), ['input_generate', 'output_drop']);
    assert.equal(spans[0]!.resource.team, 'a');
    await receiver.close();
  });
});

describe('OTLP over gRPC', () => {
  it('the tracer and the metrics exporter send to grpc endpoints', async () => {
    const receiver = await OtlpGrpcReceiver.start();
    const config = join(tempDir('nekton-tracer-'), 'c.yaml');
    writeFileSync(
      config,
      [
        'http: {enabled: false}',
        'tracer:',
        `  open_telemetry_collector: {service: grpc-traced, grpc: [{address: "127.0.0.1:${receiver.port}"}]}`,
        'metrics:',
        `  open_telemetry_collector: {service: grpc-metered, grpc: [{address: "127.0.0.1:${receiver.port}"}]}`,
        'input:',
        '  generate: {mapping: "root = 1", count: 3, interval: ""}',
        'output:',
        '  drop: {}',
      ].join('\n'),
    );
    try {
      const run = await runNekton(['-c', config]);
      assert.equal(run.code, 0, run.stderr);
      await waitFor(() => receiver.received('traces', 'output_drop'), { message: 'spans over gRPC' });
      assert.ok(receiver.received('traces', 'input_generate'));
      assert.ok(receiver.received('traces', 'grpc-traced'));
      await waitFor(() => receiver.received('metrics', 'output_sent'), { message: 'metrics over gRPC' });
      assert.ok(receiver.received('metrics', 'grpc-metered'));
    } finally {
      await receiver.close();
    }
  });
});

describe('tracer in streams mode', () => {
  it('labels every span with its stream', async () => {
    const receiver = await OtlpReceiver.start();
    const dir = tempDir('nekton-tracer-streams-');
    const observability = join(dir, 'observability.yaml');
    const port = await freePort();
    writeFileSync(
      observability,
      [
        `http: {address: "127.0.0.1:${port}"}`,
        'logger: {level: WARN}',
        'tracer:',
        `  open_telemetry_collector: {http: [{address: "127.0.0.1:${receiver.port}"}]}`,
      ].join('\n'),
    );
    const streams = join(dir, 'streams');
    mkdirSync(streams);
    writeFileSync(
      join(streams, 'billing.yaml'),
      'input:\n  generate: {mapping: "root = 1", count: 2, interval: ""}\noutput:\n  drop: {}\n',
    );
    const nekton = startNekton(['streams', '-o', observability, streams]);
    try {
      const sent = /^output_sent\{[^}]*stream="billing"[^}]*\} 2$/m;
      await waitFor(
        () =>
          fetch(`http://127.0.0.1:${port}/metrics`)
            .then((r) => r.text())
            .then((t) => sent.test(t)),
        { message: () => `the stream's two messages\n${nekton.output()}`, timeoutMs: 20_000 },
      );
      // The spans leave at the latest when the process stops.
      nekton.kill('SIGTERM');
      await new Promise((r) => nekton.once('exit', r));
      const spans = await waitFor(() => (receiver.spans().length >= 4 ? receiver.spans() : undefined), {
        message: () => `four spans\n${nekton.output()}`,
      });
      assert.deepEqual([...new Set(spans.map((s) => `${s.name} ${s.attributes['nekton.stream']}`))].sort(), [
        'input_generate billing',
        'output_drop billing',
      ]);
    } finally {
      nekton.kill('SIGTERM');
      await receiver.close();
    }
  });
});

describe('traceparent in message headers', () => {
  it('a NATS output sends the output span as the traceparent header', async (t) => {
    if (!(await requireService(t, 'nats'))) return;
    const receiver = await OtlpReceiver.start();
    const subject = `nekton.tracing.${process.pid}.${Date.now()}`;
    const nats = await connect({ servers: NATS_URL });
    const headers: string[] = [];
    const subscription = nats.subscribe(subject, {
      callback: (_err, msg) => {
        headers.push(msg.headers?.get('traceparent') ?? '');
      },
    });
    const config = join(tempDir('nekton-tracer-nats-'), 'c.yaml');
    writeFileSync(
      config,
      [
        'http: {enabled: false}',
        'logger: {level: WARN}',
        'tracer:',
        `  open_telemetry_collector: {http: [{address: "127.0.0.1:${receiver.port}"}]}`,
        'input:',
        '  generate: {mapping: "root = 1", interval: 100ms}',
        'output:',
        '  nats:',
        `    urls: [${NATS_URL}]`,
        `    subject: ${subject}`,
        '    metadata: {include_prefixes: [traceparent]}',
      ].join('\n'),
    );
    const nekton = startNekton(['-c', config]);
    try {
      await waitFor(() => headers.length > 0, { message: () => `a message on NATS\n${nekton.output()}` });
      nekton.kill('SIGTERM');
      await new Promise((r) => nekton.once('exit', r));
      const header = headers[0]!;
      const [, traceId, spanId] = header.split('-');
      const spans = await waitFor(
        () =>
          receiver.spans().find((s) => s.name === 'output_nats' && s.spanId === spanId) && receiver.spans(),
        { message: `the output span ${header} at the receiver` },
      );
      const output = spans.find((s) => s.spanId === spanId)!;
      assert.equal(output.traceId, traceId);
      const input = spans.find((s) => s.spanId === output.parentSpanId);
      assert.equal(input?.name, 'input_generate');
    } finally {
      nekton.kill('SIGTERM');
      subscription.unsubscribe();
      await nats.close();
      await receiver.close();
    }
  });
});
