// An input-side `batching` policy (the `broker` input's): transactions are read and grouped until
// the policy flushes, and the grouped batch's ack settles every transaction that went into it.
import { failedMessages, partialError, wholeFailure } from '../../engine/batch_error.js';
import type { BatchPolicy } from '../../engine/batching.js';
import type { AckFn, ConnectionStatus, Input, Transaction } from '../../engine/component.js';
import { type ExhaustedListener, Exhaustion } from '../../engine/exhaustion.js';
import { runProcessors } from '../../engine/observed_processor.js';
import { sharedAck } from '../../engine/shared_ack.js';
import { timerDelay } from '../../engine/timer_delay.js';
import type { Message } from '../../message/message.js';

const TIMED_OUT = Symbol('timed out');
const WOKEN = Symbol('the inner input is exhausted');

export class BatchedInput implements Input {
  /** Reads are serialised: one batch is assembled at a time. */
  private chain: Promise<unknown> = Promise.resolve();
  /** A read of the inner input still running when the period expired, kept for the next batch. */
  private pendingRead: Promise<Transaction | null> | null = null;
  private ended = false;
  private readonly ready: Transaction[] = [];
  /**
   * The inner input is exhausted (for good, or one part of it): what was collected goes out at
   * once, since its acks are what the inner input waits for before it ends.
   */
  private innerExhausted = false;
  private wake: (() => void) | null = null;
  private readonly exhaustion = new Exhaustion();

  constructor(
    private readonly inner: Input,
    private readonly policy: BatchPolicy,
  ) {
    inner.onExhausted?.((event) => {
      this.innerExhausted = event !== 'resumed';
      if (this.innerExhausted) this.wakeCollector();
      if (event === undefined) this.exhaustion.fire();
      else this.exhaustion.signal(event);
    });
  }

  onExhausted(listener: ExhaustedListener): void {
    this.exhaustion.add(listener);
  }

  read(): Promise<Transaction | null> {
    const next = this.chain.then(() => this.nextBatch());
    this.chain = next.catch(() => undefined);
    return next;
  }

  statuses(): ConnectionStatus[] {
    return this.inner.statuses();
  }

  async close(): Promise<void> {
    await this.inner.close();
    for (const p of this.policy.processors) await p.close();
  }

  private async nextBatch(): Promise<Transaction | null> {
    for (;;) {
      const queued = this.ready.shift();
      if (queued) return queued;
      const parts = await this.collect();
      if (parts.length === 0) return null;
      const messages: Message[] = parts.flatMap((p) => p.batch);
      const ack = combinedAck(parts, messages);
      const result = runProcessors(this.policy.processors, messages);
      const batches = result instanceof Promise ? await result : result;
      if (batches.length === 0) {
        await ack(null);
        continue;
      }
      if (batches.length === 1) return { batch: batches[0]!, ack };
      const shared = sharedAck({ batch: messages, ack }, batches.length);
      for (const batch of batches) this.ready.push({ batch, ack: shared });
    }
  }

  /** Reads transactions until the policy says flush, the period runs out, or the input ends. */
  private async collect(): Promise<Transaction[]> {
    const parts: Transaction[] = [];
    let count = 0;
    let bytes = 0;
    let deadline = 0;
    while (!this.ended) {
      if (parts.length > 0 && this.innerExhausted) break;
      this.pendingRead ??= this.inner.read();
      let txn: Transaction | null | typeof TIMED_OUT | typeof WOKEN;
      if (parts.length > 0) {
        txn = await this.raceWake(this.pendingRead, this.policy.periodMs > 0 ? deadline - Date.now() : null);
        if (txn === TIMED_OUT || txn === WOKEN) break;
      } else {
        txn = await this.pendingRead;
      }
      this.pendingRead = null;
      if (!txn) {
        this.ended = true;
        break;
      }
      if (parts.length === 0) deadline = Date.now() + this.policy.periodMs;
      parts.push(txn);
      count += txn.batch.length;
      if (this.policy.byteSize > 0) bytes += byteSizeOf(txn.batch);
      if (this.flushes(txn.batch, count, bytes, parts)) break;
    }
    return parts;
  }

  /** The read, unless the period (null: none) runs out or the inner input reports exhaustion. */
  private raceWake(
    read: Promise<Transaction | null>,
    periodLeftMs: number | null,
  ): Promise<Transaction | null | typeof TIMED_OUT | typeof WOKEN> {
    const woken = new Promise<typeof WOKEN>((resolve) => {
      this.wake = () => resolve(WOKEN);
    });
    const raced = Promise.race([read, woken]);
    const result = periodLeftMs === null ? raced : raceTimeout(raced, periodLeftMs);
    return result.finally(() => {
      this.wake = null;
    });
  }

  private wakeCollector(): void {
    this.wake?.();
  }

  private flushes(last: Message[], count: number, bytes: number, parts: Transaction[]): boolean {
    const { policy } = this;
    if (policy.count > 0 && count >= policy.count) return true;
    if (policy.byteSize > 0 && bytes >= policy.byteSize) return true;
    if (policy.check && last.length > 0) {
      const all = parts.flatMap((p) => p.batch);
      try {
        return policy.check.query(all, all.length - 1) === true;
      } catch {
        return false;
      }
    }
    return false;
  }
}

function byteSizeOf(batch: Message[]): number {
  let n = 0;
  for (const m of batch) n += m.byteSize();
  return n;
}

/**
 * One ack for a grouped batch: settles every transaction in it with the same outcome, except when
 * the output names the messages that failed (a BatchError on this very batch): then only the
 * transactions holding one of them are nacked, and the others, delivered, are acked.
 */
function combinedAck(parts: Transaction[], messages: Message[]): AckFn {
  return async (err) => {
    const failedAt = err ? failedMessages(err, messages) : null;
    if (failedAt === null) {
      await Promise.all(parts.map((p) => p.ack(err)));
      return;
    }
    const reason = wholeFailure(err);
    const outcomes: Promise<void>[] = [];
    let start = 0;
    let next = 0;
    for (const part of parts) {
      const end = start + part.batch.length;
      const failed: number[] = [];
      while (next < failedAt.length && failedAt[next]! < end) failed.push(failedAt[next++]! - start);
      outcomes.push(part.ack(failed.length > 0 ? partialError(part.batch, failed, reason) : null));
      start = end;
    }
    await Promise.all(outcomes);
  };
}

function raceTimeout<T>(work: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  if (ms <= 0) return Promise.resolve(TIMED_OUT);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), timerDelay(ms));
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
