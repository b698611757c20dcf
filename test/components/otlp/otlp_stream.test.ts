// A whole stream: an OTel SDK exporter → otlp_http input → otlp_grpc output → an otlp_grpc input;
// the SDK's export completes only once the far end acknowledged the spans.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { context, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OtlpGrpcReader } from '../../../src/components/inputs/otlp_grpc.js';
import { otlpGrpcInputFields } from '../../../src/components/otlp/fields.js';
import type { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';
import { freePort } from '../../helpers/kit.js';
import { buildStream } from '../http_connectors/support.js';
import { parsedConfigOf } from '../reference.js';

// biome-ignore lint/suspicious/noExplicitAny: OTLP JSON read by the assertions
type Json = Record<string, any>;

describe('otlp stream', () => {
  it('relays SDK spans from OTLP/HTTP to OTLP/gRPC, acknowledging end to end', async () => {
    const ctx = createTestContext();
    const sink = new OtlpGrpcReader(
      parsedConfigOf(otlpGrpcInputFields, ctx, { address: '127.0.0.1:0' }),
      ctx,
    );
    await sink.connect();
    const httpPort = await freePort();
    const stream = await buildStream(`
input:
  otlp_http:
    address: 127.0.0.1:${httpPort}
pipeline:
  processors:
    - mapping: |
        root = this
        meta relayed = "yes"
output:
  otlp_grpc:
    endpoint: 127.0.0.1:${sink.boundPort()}
`);
    const running = stream.run();
    try {
      const provider = new BasicTracerProvider({
        spanProcessors: [
          new SimpleSpanProcessor(new OTLPTraceExporter({ url: `http://127.0.0.1:${httpPort}/v1/traces` })),
        ],
      });
      const tracer = provider.getTracer('relay-test');
      const parent = tracer.startSpan('outer');
      tracer.startSpan('inner', {}, trace.setSpan(context.active(), parent)).end();
      parent.end();
      let flushedDone = false;
      const flushed = provider.forceFlush().then(() => {
        flushedDone = true;
      });
      const spans: Json[] = [];
      while (spans.length < 2) {
        const txn = await sink.read();
        assert.ok(txn);
        assert.equal(flushedDone, false, 'the SDK export waits for the far end');
        for (const m of txn.batch as Message[]) spans.push(m.structured() as Json);
        await txn.ack(null);
      }
      await flushed;
      await provider.shutdown();
      const outer = spans.find((s) => s.name === 'outer');
      const inner = spans.find((s) => s.name === 'inner');
      assert.equal(inner?.parent_span_id, outer?.span_id);
      assert.ok(inner?.span_id);
    } finally {
      await stream.stop(1000);
      await running;
      await sink.close();
    }
  });
});
