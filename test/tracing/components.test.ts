// The span wrappers on their own, with the SDK's in-memory exporter: what a traced output writes,
// how failures show on spans, and that a partial failure still names the caller's batch.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SpanStatusCode } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { endpointUrl } from '../../src/base/otlp_endpoints.js';
import { BatchError, failedMessages } from '../../src/engine/batch_error.js';
import type { Output, Transaction } from '../../src/engine/component.js';
import { Message, type ResponseSink } from '../../src/message/message.js';
import { OtelEngineTracing } from '../../src/tracing/components.js';

function traced() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, tracing: new OtelEngineTracing(provider.getTracer('test')) };
}

const component = { type: 'thing', label: 'l', path: 'root.output' };

function recordingOutput(fail?: (batch: Message[]) => Error | undefined): Output & { written: Message[][] } {
  const written: Message[][] = [];
  return {
    written,
    async write(batch) {
      written.push(batch);
      const err = fail?.(batch);
      if (err) throw err;
    },
    statuses: () => [],
    close: async () => {},
  };
}

describe('traced components', () => {
  it('an input span is the parent of the output span, and the written copy names the output span', async () => {
    const { exporter, tracing } = traced();
    const message = new Message('a');
    message.setMeta('Traceparent', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
    let acked: Error | null | undefined;
    const txn: Transaction = {
      batch: [message],
      ack: async (err) => {
        acked = err;
      },
    };
    const input = tracing.input(
      { read: async () => txn, statuses: () => [], close: async () => {} },
      { ...component, path: 'root.input' },
    );
    const sink = {} as ResponseSink; // a sync_response request the output must still answer
    message.responseSink = sink;
    const read = (await input.read())!;
    assert.equal(read.batch[0]!.getMeta('Traceparent'), undefined, 'the canonical key is replaced');
    const inner = recordingOutput();
    await tracing.output(inner, component).write(read.batch);
    await read.ack(null);
    assert.equal(acked, null);
    const spans = exporter.getFinishedSpans();
    const inSpan = spans.find((s) => s.name === 'input_thing')!;
    const outSpan = spans.find((s) => s.name === 'output_thing')!;
    assert.equal(inSpan.parentSpanContext?.spanId, '00f067aa0ba902b7');
    assert.equal(outSpan.parentSpanContext?.spanId, inSpan.spanContext().spanId);
    assert.equal(outSpan.spanContext().traceId, '4bf92f3577b34da6a3ce929d0e0e4736');
    const sent = inner.written[0]![0]!;
    assert.notEqual(sent, message, 'the output writes a copy');
    assert.equal(sent.responseSink, sink);
    assert.equal(
      sent.getMeta('traceparent'),
      `00-4bf92f3577b34da6a3ce929d0e0e4736-${outSpan.spanContext().spanId}-01`,
    );
    assert.equal(
      message.getMeta('traceparent'),
      `00-4bf92f3577b34da6a3ce929d0e0e4736-${inSpan.spanContext().spanId}-01`,
    );
    assert.deepEqual(outSpan.attributes, {
      'nekton.component.type': 'thing',
      'nekton.component.path': 'root.output',
      'nekton.component.label': 'l',
    });
  });

  it('a partial failure names the caller batch, and failed writes and nacks mark spans', async () => {
    const { exporter, tracing } = traced();
    const batch = [new Message('a'), new Message('b')];
    const output = tracing.output(
      recordingOutput((written) => new BatchError(written, [1], new Error('b refused'))),
      component,
    );
    const err = await output.write(batch).then(
      () => null,
      (e: unknown) => e,
    );
    assert.deepEqual(failedMessages(err, batch), [1]);
    const spans = exporter.getFinishedSpans();
    assert.equal(spans.length, 2);
    for (const span of spans) assert.equal(span.status.code, SpanStatusCode.ERROR);

    const processor = tracing.processor({ ...component, type: 'mapping' });
    const open = processor.start(batch);
    const flagged = batch.map((m) => m.copy());
    flagged[0]!.error = new Error('bad');
    open.end([flagged]);
    const mapping = exporter.getFinishedSpans().filter((s) => s.name === 'mapping');
    assert.deepEqual(
      mapping.map((s) => s.status.code),
      [SpanStatusCode.ERROR, SpanStatusCode.UNSET],
    );
  });

  it('builds OTLP endpoint URLs from address, the deprecated url, and secure', () => {
    assert.equal(
      endpointUrl({ address: 'collector:4318' }, 'localhost:4318', '/v1/traces'),
      'http://collector:4318/v1/traces',
    );
    assert.equal(
      endpointUrl({ url: 'old:4318', secure: true }, 'localhost:4318', '/v1/traces'),
      'https://old:4318/v1/traces',
    );
    assert.equal(endpointUrl({}, 'localhost:4317'), 'http://localhost:4317');
    assert.equal(endpointUrl({ address: 'http://j:4318' }, '', '/v1/traces'), 'http://j:4318/v1/traces');
    assert.equal(endpointUrl({ address: 'http://j:4318/custom' }, '', '/v1/traces'), 'http://j:4318/custom');
  });
});
