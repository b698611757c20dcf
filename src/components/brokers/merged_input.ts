// Merges the transactions of several member inputs into one stream (`broker` and `dynamic`
// inputs). Each transaction keeps its own ack, so every source commits exactly what it sent.
// Members may be added and removed while reading; each is pumped by its own loop, and a small
// bounded queue keeps a fast member from running far ahead of the pipeline.
import type { ConnectionStatus, Input, Transaction } from '../../engine/component.js';
import { type ExhaustedListener, Exhaustion } from '../../engine/exhaustion.js';

export interface MergedInputOptions {
  /** End (reads resolve null) once every member has ended; false keeps waiting for new members. */
  endWhenEmpty: boolean;
  /** Called when a member ends by itself (its source is exhausted or it failed for good). */
  onMemberEnded?: (id: string, error?: unknown) => void;
}

/** Transactions read ahead of the consumers, at most. */
const QUEUE_LIMIT = 64;

interface Member {
  input: Input;
  /** Set when the member was removed on purpose: its loop ends without reporting. */
  removed: boolean;
  /** Its source is exhausted (it may still replay nacks until its acks settle). */
  exhausted: boolean;
  done: Promise<void>;
}

export class MergedInput implements Input {
  private readonly members = new Map<string, Member>();
  private readonly queue: Transaction[] = [];
  private readers: Array<(txn: Transaction | null) => void> = [];
  private spaceWaiters: Array<() => void> = [];
  private closed = false;
  /** Members added so far, so an input with none yet does not count as ended. */
  private everAdded = false;
  private readonly exhaustion = new Exhaustion();

  constructor(private readonly options: MergedInputOptions) {}

  /** Adds a member and starts reading from it; returns the member it replaced (not yet closed). */
  add(id: string, input: Input): Input | undefined {
    if (this.closed) throw new Error('the broker is closed');
    const old = this.detach(id);
    const member: Member = { input, removed: false, exhausted: false, done: Promise.resolve() };
    input.onExhausted?.((event) => {
      if (event === undefined) {
        member.exhausted = true;
        this.allExhausted();
      } else if (event === 'resumed' || this.othersExhausted(member)) {
        // A sequence member between two of its inputs: only matters when nothing else flows.
        this.exhaustion.signal(event);
      }
    });
    member.done = this.pump(id, member);
    this.members.set(id, member);
    this.everAdded = true;
    return old;
  }

  /** Takes a member out (its loop stops reading); returns it so the caller can close it. */
  remove(id: string): Input | undefined {
    const old = this.detach(id);
    this.maybeEnd();
    return old;
  }

  has(id: string): boolean {
    return this.members.has(id);
  }

  read(): Promise<Transaction | null> {
    const next = this.queue.shift();
    if (next) {
      this.wakeProducers();
      return Promise.resolve(next);
    }
    if (this.closed || this.isEnded()) return Promise.resolve(null);
    return new Promise((resolve) => this.readers.push(resolve));
  }

  /** Once every member is exhausted and no new one can come (a `broker`, not a `dynamic` input). */
  onExhausted(listener: ExhaustedListener): void {
    this.exhaustion.add(listener);
  }

  statuses(): ConnectionStatus[] {
    return [...this.members.values()].flatMap((m) => m.input.statuses());
  }

  /** Stops every member; transactions read but never handed out are nacked for redelivery. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const members = [...this.members.values()];
    this.members.clear();
    for (const m of members) m.removed = true;
    this.wakeProducers();
    for (const resolve of this.readers.splice(0)) resolve(null);
    await Promise.allSettled(members.map((m) => m.input.close()));
    await Promise.allSettled(members.map((m) => m.done));
    const unread = this.queue.splice(0);
    await Promise.allSettled(unread.map((txn) => txn.ack(new Error('input closed before processing'))));
  }

  private detach(id: string): Input | undefined {
    const old = this.members.get(id);
    if (!old) return undefined;
    old.removed = true;
    this.members.delete(id);
    this.wakeProducers();
    return old.input;
  }

  private async pump(id: string, member: Member): Promise<void> {
    let failure: unknown;
    try {
      for (;;) {
        while (this.queue.length >= QUEUE_LIMIT && !member.removed && !this.closed) {
          await new Promise<void>((resolve) => this.spaceWaiters.push(resolve));
        }
        if (member.removed || this.closed) return;
        const txn = await member.input.read();
        if (!txn) break;
        this.deliver(txn);
      }
    } catch (err) {
      failure = err;
    }
    if (member.removed || this.closed) return;
    this.members.delete(id);
    this.options.onMemberEnded?.(id, failure);
    // Released in the background: closing waits for the member's handed-out batches to settle.
    member.input.close().catch(() => undefined);
    this.maybeEnd();
    this.allExhausted();
  }

  /** Hands a transaction to a waiting reader, else queues it (also after a removal: it is acked normally). */
  private deliver(txn: Transaction): void {
    const reader = this.readers.shift();
    if (reader) reader(txn);
    else this.queue.push(txn);
  }

  private isEnded(): boolean {
    return this.options.endWhenEmpty && this.everAdded && this.members.size === 0 && this.queue.length === 0;
  }

  private maybeEnd(): void {
    if (!this.isEnded()) return;
    for (const resolve of this.readers.splice(0)) resolve(null);
  }

  /** Signals the final exhaustion when every member left is exhausted and no new one can come. */
  private allExhausted(): void {
    if (!this.options.endWhenEmpty || this.members.size === 0) return;
    for (const m of this.members.values()) if (!m.exhausted) return;
    this.exhaustion.fire();
  }

  private othersExhausted(member: Member): boolean {
    for (const m of this.members.values()) if (m !== member && !m.exhausted) return false;
    return true;
  }

  private wakeProducers(): void {
    const waiting = this.spaceWaiters;
    this.spaceWaiters = [];
    for (const wake of waiting) wake();
  }
}
