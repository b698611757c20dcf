// otlp inputs: metrics from the SDK, gRPC refusals (size, token, garbage), the HTTP write_timeout,
// and an otlp_http output seeing the receiver's nack.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, describe, it } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { OtlpGrpcReader } from '../../../src/components/inputs/otlp_grpc.js';
import { OtlpHttpReader } from '../../../src/components/inputs/otlp_http.js';
import { encodeProtobuf, GRPC_PATHS } from '../../../src/components/otlp/codec.js';
import { otlpGrpcInputFields, otlpHttpInputFields } from '../../../src/components/otlp/fields.js';
import { spec as httpOutput } from '../../../src/components/outputs/otlp_http.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';
import { configOf, parsedConfigOf } from '../reference.js';

// biome-ignore lint/suspicious/noExplicitAny: OTLP JSON read by the assertions
type Json = Record<string, any>;

const closers: (() => Promise<void>)[] = [];
after(async () => {
  for (const c of closers.reverse()) await c();
});

async function httpInput(overrides: Record<string, unknown> = {}) {
  const ctx = createTestContext();
  const config = parsedConfigOf(otlpHttpInputFields, ctx, { address: '127.0.0.1:0', ...overrides });
  const reader = new OtlpHttpReader(config, ctx);
  await reader.connect();
  closers.push(() => reader.close());
  return { reader, url: `http://127.0.0.1:${reader.boundAddress()?.port}` };
}

async function grpcInput(overrides: Record<string, unknown> = {}) {
  const ctx = createTestContext();
  const config = parsedConfigOf(otlpGrpcInputFields, ctx, { address: '127.0.0.1:0', ...overrides });
  const reader = new OtlpGrpcReader(config, ctx);
  await reader.connect();
  closers.push(() => reader.close());
  return { reader, port: reader.boundPort() };
}

function call(
  port: number,
  path: string,
  body: Buffer,
  metadata = new grpc.Metadata(),
): Promise<grpc.ServiceError | null> {
  const client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      path,
      (b: Buffer) => b,
      (b: Buffer) => b,
      body,
      metadata,
      (err) => {
        client.close();
        resolve(err);
      },
    );
  });
}

const ONE_SPAN = {
  resourceSpans: [
    {
      scopeSpans: [
        { spans: [{ traceId: '0102030405060708090a0b0c0d0e0f10', spanId: '0102030405060708', name: 's' }] },
      ],
    },
  ],
};

describe('otlp_http input, metrics', () => {
  it('gives one message per metric from the SDK metrics exporter', async () => {
    const { reader, url } = await httpInput();
    const exporter = new OTLPMetricExporter({ url: `${url}/v1/metrics` });
    const metricReader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
    const provider = new MeterProvider({ readers: [metricReader] });
    const meter = provider.getMeter('otlp-test-meter');
    meter.createCounter('requests_total').add(3, { route: '/a' });
    meter.createHistogram('latency_ms').record(12);
    const flushed = provider.forceFlush();
    const txn = await reader.read();
    assert.ok(txn);
    const byName: Record<string, Json> = {};
    for (const m of txn.batch) {
      const metric = m.structured() as Json;
      byName[metric.name] = metric;
    }
    assert.deepEqual(Object.keys(byName).sort(), ['latency_ms', 'requests_total']);
    assert.equal(txn.batch[0]?.getMeta('signal_type'), 'metric');
    const point = byName.requests_total.sum.data_points[0];
    assert.equal(point.as_int ?? point.as_double, point.as_int !== undefined ? '3' : 3);
    assert.equal(point.attributes[0].key, 'route');
    assert.equal(byName.latency_ms.histogram.data_points[0].count, '1');
    assert.equal(byName.latency_ms.scope?.name, 'otlp-test-meter');
    await txn.ack(null);
    await flushed;
    // Shutting down exports once more: deliver that too.
    const drained = reader.read().then((t) => t?.ack(null));
    await provider.shutdown();
    await drained;
  });

  it('answers 503 when the messages are not delivered within write_timeout', async () => {
    const { reader, url } = await httpInput({ write_timeout: '50ms' });
    const res = fetch(`${url}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ONE_SPAN),
    });
    const txn = await reader.read(); // taken, never acked in time
    assert.equal(txn?.batch.length, 1);
    assert.equal((await res).status, 503);
    await txn?.ack(null);
  });
});

describe('otlp_grpc input refusals', () => {
  it('refuses garbage (INVALID_ARGUMENT), oversize (RESOURCE_EXHAUSTED), a wrong token (UNAUTHENTICATED)', async () => {
    const { reader, port } = await grpcInput({ max_recv_msg_size: 1024, auth_token: 'tok' });
    const md = new grpc.Metadata();
    md.set('authorization', 'Bearer tok');
    assert.equal(
      (await call(port, GRPC_PATHS.trace, Buffer.from([0xff, 0xff, 0xff, 0x0f, 1]), md))?.code,
      grpc.status.INVALID_ARGUMENT,
    );
    assert.equal(
      (await call(port, GRPC_PATHS.trace, Buffer.alloc(4096, 1), md))?.code,
      grpc.status.RESOURCE_EXHAUSTED,
    );
    const body = Buffer.from(encodeProtobuf('trace', ONE_SPAN));
    assert.equal((await call(port, GRPC_PATHS.trace, body))?.code, grpc.status.UNAUTHENTICATED);
    assert.equal(
      (await call(port, '/opentelemetry.proto.collector.trace.v1.TraceService/Nope', body, md))?.code,
      grpc.status.UNIMPLEMENTED,
    );
    // Raw garbage on the HTTP/2 port, then a reset.
    await new Promise<void>((resolve) => {
      const sock = connect(port, '127.0.0.1', () => {
        sock.write('GET / HTTP/1.1\r\n\r\nPRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\xff\xff\xff\xff');
        sock.resetAndDestroy();
        resolve();
      });
      sock.on('error', () => undefined);
    });
    // Still serving.
    const ok = call(port, GRPC_PATHS.trace, body, md);
    const txn = await reader.read();
    assert.equal(txn?.batch.length, 1);
    await txn?.ack(null);
    assert.equal(await ok, null);
  });
});

describe('otlp_http output', () => {
  it('fails the write when the receiver answers 503 (a nack there)', async () => {
    const { reader, url } = await httpInput();
    const ctx = createTestContext();
    const output = await httpOutput.build(configOf(httpOutput, { endpoint: url, content_type: 'json' }), ctx);
    closers.push(() => output.close());
    const written = output.write([Message.fromStructured(ONE_SPAN)]);
    const txn = await reader.read();
    await txn?.ack(new Error('no room'));
    await assert.rejects(written, /503/);
  });
});
