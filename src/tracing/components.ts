// Spans per message and component, as the reference emits them: `input_<type>` when an input reads a
// message (a child of the message's incoming `traceparent`), `<type>` for each processor call and
// `output_<type>` for each write, both children of the message's current `traceparent`. The input
// and output spans become the message's `traceparent`, so what an output sends names its span.
import { type Attributes, type Span, SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { BatchError, GroupWriteError } from '../engine/batch_error.js';
import type { Input, Output, Transaction, TransactionGroup } from '../engine/component.js';
import type { EngineTracing, OpenSpans, ProcessorSpans, TracedComponent } from '../engine/tracing.js';
import type { Batch } from '../message/message.js';
import { contextOf, setTraceparent } from './propagation.js';

function attributesOf(component: TracedComponent): Attributes {
  const attributes: Attributes = {
    'nekton.component.type': component.type,
    'nekton.component.path': component.path,
  };
  if (component.label) attributes['nekton.component.label'] = component.label;
  if (component.stream !== undefined) attributes['nekton.stream'] = component.stream;
  return attributes;
}

/** One span per message of the batch, each a child of that message's `traceparent`. */
function startSpans(
  tracer: Tracer,
  name: string,
  kind: SpanKind,
  attributes: Attributes,
  batch: Batch,
): Span[] {
  const spans: Span[] = new Array(batch.length);
  for (let i = 0; i < batch.length; i++)
    spans[i] = tracer.startSpan(name, { kind, attributes }, contextOf(batch[i]!));
  return spans;
}

function endSpans(spans: readonly Span[], err: unknown): void {
  for (const span of spans) {
    if (err)
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message: err instanceof Error ? err.message : String(err),
      });
    span.end();
  }
}

export class OtelEngineTracing implements EngineTracing {
  constructor(private readonly tracer: Tracer) {}

  input(input: Input, component: TracedComponent): Input {
    return new TracedInput(input, this.tracer, `input_${component.type}`, attributesOf(component));
  }

  output(output: Output, component: TracedComponent): Output {
    return new TracedOutput(output, this.tracer, `output_${component.type}`, attributesOf(component));
  }

  processor(component: TracedComponent): ProcessorSpans {
    const { tracer } = this;
    const attributes = attributesOf(component);
    return {
      start(batch: Batch): OpenSpans {
        const spans = startSpans(tracer, component.type, SpanKind.INTERNAL, attributes, batch);
        return {
          end(out) {
            // The processor's answer in the same shape (one batch, one message each): a message it
            // flagged marks its span failed.
            const same = out.length === 1 && out[0]!.length === spans.length ? out[0]! : null;
            for (let i = 0; i < spans.length; i++) {
              const error = same?.[i]?.error;
              if (error) spans[i]!.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
              spans[i]!.end();
            }
          },
        };
      },
    };
  }
}

/** Starts a span per message read; each ends when its transaction is acknowledged. */
class TracedInput implements Input {
  readMany?: (max: number) => Promise<Transaction | TransactionGroup | null>;

  constructor(
    private readonly inner: Input,
    private readonly tracer: Tracer,
    private readonly name: string,
    private readonly attributes: Attributes,
  ) {
    if (inner.readMany) this.readMany = (max) => this.readGroup(max);
    if (inner.onExhausted) this.onExhausted = (listener) => inner.onExhausted!(listener);
  }

  onExhausted?: Input['onExhausted'];

  async read(): Promise<Transaction | null> {
    const txn = await this.inner.read();
    return txn ? this.traceOne(txn) : null;
  }

  statuses() {
    return this.inner.statuses();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private async readGroup(max: number): Promise<Transaction | TransactionGroup | null> {
    const got = await this.inner.readMany!(max);
    if (!got) return null;
    if (!('batches' in got)) return this.traceOne(got);
    const spansOf = new Map<Batch, Span[]>();
    for (const batch of got.batches) spansOf.set(batch, this.begin(batch));
    return {
      batches: got.batches,
      ack: (err, settled) => {
        for (const batch of settled) {
          const spans = spansOf.get(batch);
          if (!spans) continue;
          spansOf.delete(batch);
          endSpans(spans, err);
        }
        got.ack(err, settled);
      },
    };
  }

  private traceOne(txn: Transaction): Transaction {
    const spans = this.begin(txn.batch);
    return {
      batch: txn.batch,
      ack: (err) => {
        endSpans(spans, err);
        return txn.ack(err);
      },
    };
  }

  private begin(batch: Batch): Span[] {
    const spans = startSpans(this.tracer, this.name, SpanKind.CONSUMER, this.attributes, batch);
    for (let i = 0; i < batch.length; i++) setTraceparent(batch[i]!, spans[i]!.spanContext());
    return spans;
  }
}

/** Writes copies of each batch whose `traceparent` names the write's span per message. */
class TracedOutput implements Output {
  writeGroup?: (batches: readonly Batch[]) => Promise<void>;
  flush?: () => Promise<void>;

  constructor(
    private readonly inner: Output,
    private readonly tracer: Tracer,
    private readonly name: string,
    private readonly attributes: Attributes,
  ) {
    if (inner.writeGroup) this.writeGroup = (batches) => this.traced(batches, (b) => inner.writeGroup!(b));
    if (inner.flush) this.flush = () => inner.flush!();
  }

  write(batch: Batch): Promise<void> {
    return this.traced([batch], (b) => this.inner.write(b[0]!));
  }

  statuses() {
    return this.inner.statuses();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private async traced(
    batches: readonly Batch[],
    write: (b: readonly Batch[]) => Promise<void>,
  ): Promise<void> {
    const spans: Span[] = [];
    // Copies: a broker may hand the same messages to several outputs, each naming its own span.
    const copies = batches.map((batch) => {
      const made = startSpans(this.tracer, this.name, SpanKind.PRODUCER, this.attributes, batch);
      spans.push(...made);
      return batch.map((message, i) => {
        const copy = message.copy();
        copy.responseSink = message.responseSink;
        setTraceparent(copy, made[i]!.spanContext());
        return copy;
      });
    });
    try {
      await write(copies);
    } catch (err) {
      endSpans(spans, err);
      throw rebound(err, batches, copies);
    }
    endSpans(spans, null);
  }
}

/** A partial failure of the copies, as the same failure of the batches they were copied from. */
function rebound(err: unknown, batches: readonly Batch[], copies: readonly Batch[]): unknown {
  if (err instanceof GroupWriteError && err.group === copies)
    return new GroupWriteError(batches, err.failed, err.reason);
  if (err instanceof BatchError && err.batch === copies[0])
    return new BatchError(batches[0]!, err.failed, err.reason);
  return err;
}
