// Output batching policies (`count`, `byte_size`, `period`, `check`, `processors`) as Benthos has
// them. Messages accumulate until a condition is met; each caller learns when the batch that
// holds its messages was delivered.
import type { Mapping } from '../bloblang/index.js';
import type { Batch, Message } from '../message/message.js';
import { failedMessages, partialError, wholeFailure } from './batch_error.js';
import type { Processor } from './component.js';
import { timerDelay } from './timer_delay.js';

export interface BatchPolicyConfig {
  count: number;
  byte_size: number;
  period: string;
  check: string;
  processors: unknown[];
}

export interface BatchPolicy {
  count: number;
  byteSize: number;
  periodMs: number;
  check: Mapping | null;
  processors: Processor[];
}

/** A policy that never groups anything is skipped entirely. */
export function isNoopPolicy(policy: BatchPolicy): boolean {
  return policy.count <= 1 && policy.byteSize <= 0 && policy.periodMs <= 0 && policy.check === null;
}

/** One add(): learns which of its messages failed once every flush holding some of them settled. */
class Waiter {
  /** Flushes still to settle that hold messages of this add. */
  flushes = 0;
  failed: number[] | null = null;
  reason: Error | null = null;

  constructor(
    readonly batch: Batch,
    readonly resolve: () => void,
    readonly reject: (err: Error) => void,
  ) {}

  /** One flush settled; `failed` are indices into this add's batch that it did not deliver. */
  settle(failed: number[] | null, reason: Error | null): void {
    if (failed && failed.length > 0) {
      if (this.failed) for (const i of failed) this.failed.push(i);
      else this.failed = failed;
      this.reason ??= reason;
    }
    if (--this.flushes > 0) return;
    if (!this.failed) {
      this.resolve();
      return;
    }
    this.failed.sort((a, b) => a - b);
    this.reject(partialError(this.batch, this.failed, this.reason!));
  }
}

/** A run of a pending batch that came from one add: `count` messages from `offset` of its batch. */
interface Segment {
  waiter: Waiter;
  /** Where the run starts in the pending batch. */
  from: number;
  count: number;
  /** Where the run starts in the add's batch. */
  offset: number;
}

interface Pending {
  messages: Message[];
  bytes: number;
  segments: Segment[];
}

const emptyPending = (): Pending => ({ messages: [], bytes: 0, segments: [] });

export class Batcher {
  private pending: Pending = emptyPending();
  private timer: NodeJS.Timeout | null = null;
  /** The last flush's processing, until its batches were handed to `flushTo`. */
  private handing: Promise<void> | null = null;

  constructor(
    private readonly policy: BatchPolicy,
    /** Sends a complete batch; resolves when it was delivered, or rejects (a BatchError: partly). */
    private readonly flushTo: (batch: Batch) => Promise<void>,
  ) {}

  /**
   * Adds a batch's messages; resolves once every message of it was delivered in some batch. When
   * some were not, rejects with a BatchError bound to `batch` naming them (the rest was delivered
   * and must not be written again), or with the plain error when none was.
   */
  add(batch: Batch): Promise<void> {
    if (batch.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const waiter = new Waiter(batch, resolve, reject);
      let runStart = 0;
      for (let i = 0; i < batch.length; i++) {
        const msg = batch[i]!;
        this.pending.messages.push(msg);
        this.pending.bytes += this.policy.byteSize > 0 ? msg.byteSize() : 0;
        if (this.shouldFlush()) {
          this.hold(waiter, runStart, i + 1 - runStart);
          runStart = i + 1;
          this.flush().catch(noop);
        }
      }
      if (runStart < batch.length) {
        this.hold(waiter, runStart, batch.length - runStart);
        this.armTimer();
      }
    });
  }

  /** Sends whatever is pending now (period expiry, shutdown). */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const { messages, segments } = this.pending;
    this.pending = emptyPending();
    if (messages.length === 0) {
      for (const s of segments) s.waiter.settle(null, null);
      return Promise.resolve();
    }
    // Without processors the batch is handed over at once (a composite flushing its members next
    // must find it there); processors may answer later.
    let done: Promise<unknown>;
    if (this.policy.processors.length === 0) {
      this.handing = null;
      done = this.sendNow(messages);
    } else {
      const processed = this.process(messages);
      this.handing = processed.then(noop, noop);
      done = processed.then((batches) => this.sendAll(batches));
    }
    return done.then(
      () => {
        for (const s of segments) s.waiter.settle(null, null);
      },
      (err: unknown) => {
        const reason = wholeFailure(err);
        // Only a failure bound to the pending batch itself (no processors reshaped it) tells
        // which messages failed; anything else failed them all.
        const failed = failedMessages(err, messages);
        for (const s of segments) s.waiter.settle(failedIn(s, failed), reason);
        throw err instanceof Error ? err : reason;
      },
    );
  }

  /** Resolves once the last flush's batches went to `flushTo` (processors may take a while). */
  handedOver(): Promise<void> {
    return this.handing ?? Promise.resolve();
  }

  hasPending(): boolean {
    return this.pending.messages.length > 0;
  }

  private shouldFlush(): boolean {
    const { count, byteSize, check } = this.policy;
    if (count > 0 && this.pending.messages.length >= count) return true;
    if (byteSize > 0 && this.pending.bytes >= byteSize) return true;
    if (check) {
      const batch = this.pending.messages;
      try {
        return check.query(batch, batch.length - 1) === true;
      } catch {
        return false;
      }
    }
    return false;
  }

  private armTimer(): void {
    if (this.policy.periodMs <= 0 || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush().catch(() => undefined);
    }, timerDelay(this.policy.periodMs));
  }

  /** The last `count` messages pending (from `from` of the add's batch) belong to `waiter`. */
  private hold(waiter: Waiter, offset: number, count: number): void {
    const from = this.pending.messages.length - count;
    waiter.flushes++;
    this.pending.segments.push({ waiter, from, count, offset });
  }

  private sendNow(batch: Batch): Promise<unknown> {
    try {
      return this.flushTo(batch);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  private sendAll(batches: Batch[]): Promise<unknown> {
    if (batches.length === 1) return this.flushTo(batches[0]!);
    // Processors reshaped the batch: one failure fails the whole flush (messages cannot be traced).
    return Promise.all(batches.map((b) => this.flushTo(b))).catch((err: unknown) => {
      throw wholeFailure(err);
    });
  }

  private async process(messages: Message[]): Promise<Batch[]> {
    let batches: Batch[] = [messages];
    for (const processor of this.policy.processors) {
      const next: Batch[] = [];
      for (const b of batches) next.push(...(await processor.process(b)));
      batches = next;
    }
    return batches.filter((b) => b.length > 0);
  }
}

/** The indices (in its add's batch) of a segment's messages that failed; `failed` null: all did. */
function failedIn(segment: Segment, failed: readonly number[] | null): number[] {
  const { from, count, offset } = segment;
  const out: number[] = [];
  if (failed === null) {
    for (let i = 0; i < count; i++) out.push(offset + i);
    return out;
  }
  for (const at of failed) if (at >= from && at < from + count) out.push(offset + at - from);
  return out;
}

function noop(): void {}
