// otlp_http and otlp_grpc end to end: OpenTelemetry SDK exporters as clients of the inputs, the
// outputs sending to the inputs, nacks seen by the client as retryable, garbage refused.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { context, trace } from '@opentelemetry/api';
import { OTLPTraceExporter as GrpcTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as HttpTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { OtlpGrpcReader } from '../../../src/components/inputs/otlp_grpc.js';
import { OtlpHttpReader } from '../../../src/components/inputs/otlp_http.js';
import { encodeProtobuf } from '../../../src/components/otlp/codec.js';
import { otlpGrpcInputFields, otlpHttpInputFields } from '../../../src/components/otlp/fields.js';
import { spec as grpcOutput } from '../../../src/components/outputs/otlp_grpc.js';
import { spec as httpOutput } from '../../../src/components/outputs/otlp_http.js';
import type { Transaction } from '../../../src/engine/component.js';
import type { Message } from '../../../src/message/message.js';
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

/** Two spans, the second a child of the first, exported through `exporter`. */
async function exportTwoSpans(exporter: SpanExporter): Promise<void> {
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('otlp-test', '1.2.3');
  tracer.startActiveSpan('parent', (parent) => {
    tracer.startSpan('child', {}, trace.setSpan(context.active(), parent)).end();
    parent.end();
  });
  await provider.forceFlush();
  await provider.shutdown();
}

/** A message of `encoding: json`: the reference's redpanda.otel.v1 span object. */
function spanOf(msg: Message): Json {
  return msg.structured() as Json;
}

const ONE_LOG = {
  resourceLogs: [
    {
      resource: { attributes: [{ key: 'service.name', value: { stringValue: 'svc' } }] },
      scopeLogs: [
        {
          scope: { name: 'logger' },
          logRecords: [
            { timeUnixNano: '1700000000000000000', severityNumber: 9, body: { stringValue: 'one' } },
            { timeUnixNano: '1700000000000000001', severityNumber: 17, body: { stringValue: 'two' } },
          ],
        },
      ],
    },
  ],
};

describe('otlp_http input', () => {
  it("turns the SDK exporter's spans into one message each and answers after the ack", async () => {
    const { reader, url } = await httpInput();
    const exported = exportTwoSpans(new HttpTraceExporter({ url: `${url}/v1/traces` }));
    const seen: Message[] = [];
    const txns: Transaction[] = [];
    while (seen.length < 2) {
      const txn = await reader.read();
      assert.ok(txn);
      txns.push(txn);
      seen.push(...(txn.batch as Message[]));
    }
    for (const txn of txns) await txn.ack(null);
    await exported;
    const child = seen.map(spanOf).find((s) => s.name === 'child');
    const parent = seen.map(spanOf).find((s) => s.name === 'parent');
    assert.ok(child && parent);
    assert.equal(child.parent_span_id, parent.span_id);
    assert.equal(child.trace_id, parent.trace_id);
    assert.equal(Buffer.from(parent.trace_id, 'base64').length, 16);
    assert.equal(parent.parent_span_id, undefined);
    assert.equal(seen[0]?.getMeta('signal_type'), 'trace');
    const first = seen[0]?.structured() as Json;
    assert.equal(first.scope.name, 'otlp-test');
    assert.equal(first.scope.version, '1.2.3');
    assert.ok(first.resource.attributes.some((a: Json) => a.key === 'service.name'));
    assert.equal(seen[0]?.getMeta('encoding'), 'json');
  });

  it('answers 503 on a nack (the OTLP retryable status) and 200 with {} after an ack', async () => {
    const { reader, url } = await httpInput();
    const post = () =>
      fetch(`${url}/v1/logs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(ONE_LOG),
      });
    const first = post();
    const txn = await reader.read();
    assert.equal(txn?.batch.length, 2);
    assert.deepEqual(
      txn?.batch.map((m) => (m.structured() as Json).body.string_value),
      ['one', 'two'],
    );
    await txn?.ack(new Error('output down'));
    const res = await first;
    assert.equal(res.status, 503);
    assert.match(await res.text(), /output down/);
    const second = post();
    await (await reader.read())?.ack(null);
    const ok = await second;
    assert.equal(ok.status, 200);
    assert.equal(await ok.text(), '{}');
  });

  it('emits protobuf messages with encoding: protobuf and accepts gzip bodies', async () => {
    const { reader, url } = await httpInput({ encoding: 'protobuf' });
    const body = gzipSync(encodeProtobuf('log', ONE_LOG));
    const res = fetch(`${url}/v1/logs`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' },
      body,
    });
    const txn = await reader.read();
    assert.equal(txn?.batch.length, 2);
    const first = txn?.batch[0] as Message;
    assert.notEqual(first.bytes()[0], 0x7b, 'protobuf, not JSON');
    assert.equal(first.getMeta('signal_type'), 'log');
    await txn?.ack(null);
    assert.equal((await res).status, 200);
  });

  it('refuses garbage, oversize bodies, wrong paths, types and tokens with 4xx and keeps serving', async () => {
    const { reader, url } = await httpInput({ max_body_size: 1024, auth_token: 'sekrit' });
    const auth = { authorization: 'Bearer sekrit' };
    const pb = { ...auth, 'content-type': 'application/x-protobuf' };
    const status = async (path: string, init: RequestInit) => (await fetch(`${url}${path}`, init)).status;
    assert.equal(
      await status('/v1/traces', {
        method: 'POST',
        headers: pb,
        body: Buffer.from([0xff, 0xff, 0xff, 0x0f, 1]),
      }),
      400,
    );
    assert.equal(
      await status('/v1/traces', {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: '{"resourceSpans": 3',
      }),
      400,
    );
    assert.equal(
      await status('/v1/traces', {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: '{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"zz"}]}]}]}',
      }),
      400,
    );
    assert.equal(await status('/v1/traces', { method: 'POST', headers: pb, body: Buffer.alloc(4096) }), 413);
    assert.equal(
      await status('/v1/logs', { method: 'POST', headers: pb, body: gzipSync(Buffer.alloc(1_000_000)) }),
      400,
    );
    assert.equal(await status('/v1/other', { method: 'POST', headers: pb, body: 'x' }), 404);
    assert.equal(await status('/v1/traces', { method: 'GET', headers: auth }), 405);
    assert.equal(
      await status('/v1/traces', {
        method: 'POST',
        headers: { ...auth, 'content-type': 'text/plain' },
        body: 'x',
      }),
      415,
    );
    assert.equal(
      await status('/v1/traces', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      }),
      401,
    );
    // A raw connection that sends garbage and resets.
    await new Promise<void>((resolve) => {
      const sock = connect(Number(new URL(url).port), '127.0.0.1', () => {
        sock.write('POST /v1/traces HTTP/1.1\r\nContent-Length: 100\r\n\r\nabc');
        sock.resetAndDestroy();
        resolve();
      });
      sock.on('error', () => undefined);
    });
    // Still serving: an empty request is accepted at once (nothing to deliver).
    assert.equal(
      await status('/v1/traces', {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: '{}',
      }),
      200,
    );
    assert.equal(reader.readBuffered(), undefined, 'nothing garbage was queued');
  });
});

describe('otlp_grpc input', () => {
  it("turns the SDK gRPC exporter's spans into one message each", async () => {
    const { reader, port } = await grpcInput();
    const exported = exportTwoSpans(new GrpcTraceExporter({ url: `http://127.0.0.1:${port}` }));
    const seen: Message[] = [];
    while (seen.length < 2) {
      const txn = await reader.read();
      assert.ok(txn);
      seen.push(...(txn.batch as Message[]));
      await txn.ack(null);
    }
    await exported;
    const spans = seen.map(spanOf);
    const parent = spans.find((s) => s.name === 'parent');
    const child = spans.find((s) => s.name === 'child');
    assert.equal(child?.parent_span_id, parent?.span_id);
    assert.equal(seen[1]?.getMeta('signal_type'), 'trace');
  });
});

describe('otlp outputs', () => {
  it('otlp_http output (protobuf) → otlp_http input gives back the same log records', async () => {
    const { reader, url } = await httpInput();
    const ctx = createTestContext();
    const output = await httpOutput.build(
      configOf(httpOutput, { endpoint: url, headers: { 'x-test': 'yes' } }),
      ctx,
    );
    closers.push(() => output.close());
    // First the request of two, split by an input; then those messages written by the output.
    const { reader: source, url: sourceUrl } = await httpInput();
    const posted = fetch(`${sourceUrl}/v1/logs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ONE_LOG),
    });
    const split = await source.read();
    assert.ok(split);
    const written = output.write(split.batch);
    const received = await reader.read();
    assert.equal(received?.batch.length, 2);
    assert.deepEqual(
      received?.batch.map((m) => {
        const { time_unix_nano, severity_number, body, resource, scope } = m.structured() as Json;
        return {
          time_unix_nano,
          severity_number,
          body,
          service: resource.attributes[0].value,
          scope: scope.name,
        };
      }),
      [
        {
          time_unix_nano: '1700000000000000000',
          severity_number: 9,
          body: { string_value: 'one' },
          service: { string_value: 'svc' },
          scope: 'logger',
        },
        {
          time_unix_nano: '1700000000000000001',
          severity_number: 17,
          body: { string_value: 'two' },
          service: { string_value: 'svc' },
          scope: 'logger',
        },
      ],
    );
    await received?.ack(null);
    await written;
    await split.ack(null);
    assert.equal((await posted).status, 200);
  });

  it('otlp_grpc output → otlp_grpc input; a nack there fails the write (UNAVAILABLE)', async () => {
    const { reader, port } = await grpcInput();
    const ctx = createTestContext();
    const output = await grpcOutput.build(configOf(grpcOutput, { endpoint: `127.0.0.1:${port}` }), ctx);
    closers.push(() => output.close());
    const { Message: Msg } = await import('../../../src/message/message.js');
    const batch = [Msg.fromStructured(ONE_LOG)];
    const ok = output.write(batch);
    const txn = await reader.read();
    assert.equal(txn?.batch.length, 2);
    await txn?.ack(null);
    await ok;
    const failing = output.write(batch);
    const again = await reader.read();
    await again?.ack(new Error('downstream down'));
    await assert.rejects(failing, /UNAVAILABLE|downstream down/);
  });

  it('fails a batch with a message that is no OTLP request', async () => {
    const ctx = createTestContext();
    const output = await httpOutput.build(configOf(httpOutput, { endpoint: 'http://127.0.0.1:9' }), ctx);
    closers.push(() => output.close());
    const { Message: Msg } = await import('../../../src/message/message.js');
    await assert.rejects(output.write([new Msg('hello')]), /signal_type/);
  });
});
