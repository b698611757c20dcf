// Output batching policies (`count`, `byte_size`, `period`, `check`, `processors`) as Benthos has
// them. Messages accumulate until a condition is met; each caller learns when the batch that
// holds its messages was delivered.
import type { Mapping } from '../bloblang/index.js';
import type { Batch, Message } from '../message/message.js';
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

interface Pending {
  messages: Message[];
  bytes: number;
  waiters: Array<{ resolve: () => void; reject: (err: Error) => void }>;
}

export class Batcher {
  private pending: Pending = { messages: [], bytes: 0, waiters: [] };
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly policy: BatchPolicy,
    /** Sends a complete batch; resolves when it was delivered. */
    private readonly flushTo: (batch: Batch) => Promise<void>,
  ) {}

  /** Adds a batch's messages; resolves once every message of it was delivered in some batch. */
  add(batch: Batch): Promise<void> {
    const flushes: Promise<void>[] = [];
    for (let i = 0; i < batch.length; i++) {
      const msg = batch[i]!;
      this.pending.messages.push(msg);
      this.pending.bytes += this.policy.byteSize > 0 ? msg.byteSize() : 0;
      if (this.shouldFlush()) flushes.push(this.flush());
    }
    if (this.pending.messages.length > 0) {
      flushes.push(new Promise((resolve, reject) => this.pending.waiters.push({ resolve, reject })));
      this.armTimer();
    }
    return flushes.length === 1 ? flushes[0]! : Promise.all(flushes).then(() => undefined);
  }

  /** Sends whatever is pending now (period expiry, shutdown). */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const { messages, waiters } = this.pending;
    this.pending = { messages: [], bytes: 0, waiters: [] };
    if (messages.length === 0) return Promise.resolve();
    const done = this.process(messages).then((batches) => Promise.all(batches.map((b) => this.flushTo(b))));
    return done.then(
      () => {
        for (const w of waiters) w.resolve();
      },
      (err: Error) => {
        for (const w of waiters) w.reject(err);
        throw err;
      },
    );
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
