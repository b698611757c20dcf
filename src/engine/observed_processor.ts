// Wraps a processor with the reference's processor metrics, counted per batch.
// `performance` imported, not the global: the global is a getter Node looks up on every use.
import { performance } from 'node:perf_hooks';
import type { Batch } from '../message/message.js';
import type { Processor } from './component.js';
import type { Counter, MetricsScope, Timer } from './context.js';
import { inheritResponseStore } from './inherit_response_store.js';
import type { OpenSpans, ProcessorSpans } from './tracing.js';

export class ObservedProcessor implements Processor {
  private readonly received: Counter;
  private readonly batchReceived: Counter;
  private readonly sent: Counter;
  private readonly batchSent: Counter;
  private readonly errors: Counter;
  private readonly latency: Timer;

  constructor(
    /** The wrapped processor (a `workflow` reads the `branch` inside a processor resource). */
    readonly inner: Processor,
    metrics: MetricsScope,
    /** Tracing hook (src/tracing): null without a tracer, so untraced batches pay one check. */
    private readonly spans: ProcessorSpans | null = null,
  ) {
    this.received = metrics.counter('processor_received');
    this.batchReceived = metrics.counter('processor_batch_received');
    this.sent = metrics.counter('processor_sent');
    this.batchSent = metrics.counter('processor_batch_sent');
    this.errors = metrics.counter('processor_error');
    this.latency = metrics.timer('processor_latency_ns');
  }

  process(batch: Batch): Batch[] | Promise<Batch[]> {
    // performance.now() is a double: no BigInt allocated per batch (as hrtime.bigint() does).
    const started = performance.now();
    this.received.inc(batch.length);
    this.batchReceived.inc();
    const open = this.spans === null ? null : this.spans.start(batch);
    let result: Batch[] | Promise<Batch[]>;
    try {
      result = this.inner.process(batch);
    } catch (err) {
      result = [flagAll(batch, err)];
    }
    if (result instanceof Promise) {
      return result.then(
        (out) => this.count(out, started, open),
        (err) => this.count([flagAll(batch, err)], started, open),
      );
    }
    return this.count(result, started, open);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private count(out: Batch[], started: number, open: OpenSpans | null): Batch[] {
    this.latency.observeNs(Math.round((performance.now() - started) * 1e6));
    if (open !== null) open.end(out);
    let messages = 0;
    let errored = 0;
    for (const b of out) {
      messages += b.length;
      for (const m of b) if (m.error) errored++;
    }
    this.sent.inc(messages);
    this.batchSent.inc(out.length);
    if (errored > 0) this.errors.inc(errored);
    return out;
  }
}

/** A processor that threw fails every message of its batch, which then carries on flagged. */
function flagAll(batch: Batch, err: unknown): Batch {
  const error = err instanceof Error ? err : new Error(String(err));
  return batch.map((m) => {
    const copy = m.copy();
    copy.error = error;
    return copy;
  });
}

/** Runs batches through processors in order; a processor may fan one batch out or drop it. */
export function runProcessors(processors: readonly Processor[], batch: Batch): Batch[] | Promise<Batch[]> {
  let batches: Batch[] = [batch];
  for (let i = 0; i < processors.length; i++) {
    const processor = processors[i]!;
    if (batches.length === 1) {
      // One batch in (the common case): the processor's own answer is the next step's input.
      const input = batches[0]!;
      const out = processor.process(input);
      if (out instanceof Promise) return continueAsync(processors, i, batches, 0, out, []);
      carryResponseStore(input, out);
      batches = withoutEmpty(out);
      if (batches.length === 0) break;
      continue;
    }
    const next: Batch[] = [];
    for (let j = 0; j < batches.length; j++) {
      const out = processor.process(batches[j]!);
      if (out instanceof Promise) return continueAsync(processors, i, batches, j, out, next);
      carryResponseStore(batches[j]!, out);
      for (const b of out) if (b.length > 0) next.push(b);
    }
    batches = next;
    if (batches.length === 0) break;
  }
  return batches;
}

/**
 * What a step made of a batch answers to the same request as the batch (a `sync_response`
 * processor later in the chain looks the request up from its messages). One field read per batch
 * when the batch came from no request.
 */
function carryResponseStore(from: Batch, made: Batch[]): void {
  if (from.length === 0 || from[0]!.responseSink === null) return;
  for (const b of made) inheritResponseStore(from, b);
}

/** The batches that still hold messages (the same array when none is empty). */
function withoutEmpty(batches: Batch[]): Batch[] {
  for (let i = 0; i < batches.length; i++)
    if (batches[i]!.length === 0) return batches.filter((b) => b.length > 0);
  return batches;
}

// The slow path, taken from the first processor that answers asynchronously.
async function continueAsync(
  processors: readonly Processor[],
  atProcessor: number,
  batches: Batch[],
  atBatch: number,
  pending: Promise<Batch[]>,
  next: Batch[],
): Promise<Batch[]> {
  const first = await pending;
  carryResponseStore(batches[atBatch]!, first);
  for (const b of first) if (b.length > 0) next.push(b);
  for (let j = atBatch + 1; j < batches.length; j++) {
    const made = await processors[atProcessor]!.process(batches[j]!);
    carryResponseStore(batches[j]!, made);
    for (const b of made) if (b.length > 0) next.push(b);
  }
  let current = next;
  for (let i = atProcessor + 1; i < processors.length && current.length > 0; i++) {
    const out: Batch[] = [];
    for (const b of current) {
      const made = await processors[i]!.process(b);
      carryResponseStore(b, made);
      for (const r of made) if (r.length > 0) out.push(r);
    }
    current = out;
  }
  return current;
}
