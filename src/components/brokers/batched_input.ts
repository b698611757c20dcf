// An input-side `batching` policy (the `broker` input's): transactions are read and grouped until
// the policy flushes, and the grouped batch's ack settles every transaction that went into it.
import { failedMessages, partialError, wholeFailure } from '../../engine/batch_error.js';
import type { BatchPolicy } from '../../engine/batching.js';
import type {
  AckFn,
  ConnectionStatus,
  Input,
  Transaction,
  TransactionGroup,
} from '../../engine/component.js';
import { type ExhaustedListener, Exhaustion } from '../../engine/exhaustion.js';
import { runProcessors } from '../../engine/observed_processor.js';
import { sharedAck } from '../../engine/shared_ack.js';
import { timerDelay } from '../../engine/timer_delay.js';
import type { Message } from '../../message/message.js';

const TIMED_OUT = Symbol('timed out');
const WOKEN = Symbol('the inner input is exhausted');

/**
 * Batches read from the inner input that go into the batch being assembled, with how to settle
 * them: a transaction (one batch) or part of a group (one ack call for all its batches).
 */
class Part {
  constructor(
    readonly batches: Message[][],
    readonly settle: (err: Error | null, batches: readonly Message[][]) => unknown,
  ) {}
}

/** A group read from the inner input that the last batch did not take whole. */
interface Leftover {
  group: TransactionGroup;
  from: number;
}

/** The most batches asked of the inner input at once (Stream's MAX_GROUP). */
const MAX_GROUP = 256;

export class BatchedInput implements Input {
  /** Reads are serialised: one batch is assembled at a time. */
  private chain: Promise<unknown> = Promise.resolve();
  /** A read of the inner input still running when the period expired, kept for the next batch. */
  private pendingRead: Promise<Transaction | TransactionGroup | null> | null = null;
  private leftover: Leftover | null = null;
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
    // A group taken from the inner input but not handed out: never delivered.
    const left = this.leftover;
    this.leftover = null;
    if (left)
      left.group.ack(new Error('input closed before processing'), left.group.batches.slice(left.from));
    for (const p of this.policy.processors) await p.close();
  }

  private async nextBatch(): Promise<Transaction | null> {
    for (;;) {
      const queued = this.ready.shift();
      if (queued) return queued;
      const parts = await this.collect();
      if (parts.length === 0) return null;
      const messages = flatten(parts);
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

  /**
   * Reads until the policy says flush, the period runs out, or the input ends. Batches the inner
   * input already holds in memory are taken as groups, without a promise per message; a group is
   * still added batch by batch, so the batch flushes exactly where it would reading them one by one.
   */
  private async collect(): Promise<Part[]> {
    const state = new Collecting();
    if (this.leftover) {
      const { group, from } = this.leftover;
      this.leftover = null;
      if (this.addGroup(state, group, from)) return state.parts;
    }
    while (!this.ended) {
      if (state.parts.length > 0 && this.innerExhausted) break;
      if (this.pendingRead === null) {
        const got = this.readInner(state.count);
        if (!(got instanceof Promise)) {
          if (this.addGroup(state, got, 0)) break;
          continue;
        }
        this.pendingRead = got;
      }
      let txn: Transaction | TransactionGroup | null | typeof TIMED_OUT | typeof WOKEN;
      if (state.parts.length > 0) {
        txn = await this.raceWake(
          this.pendingRead,
          this.policy.periodMs > 0 ? state.deadline - Date.now() : null,
        );
        if (txn === TIMED_OUT || txn === WOKEN) break;
      } else {
        txn = await this.pendingRead;
      }
      this.pendingRead = null;
      if (!txn) {
        this.ended = true;
        break;
      }
      if ('batches' in txn) {
        if (this.addGroup(state, txn, 0)) break;
        continue;
      }
      const t = txn;
      if (this.add(state, new Part([t.batch], (err) => t.ack(err)), t.batch)) break;
    }
    return state.parts;
  }

  /** A group the inner input holds in memory, else the promise of its next read. */
  private readInner(collected: number): TransactionGroup | Promise<Transaction | TransactionGroup | null> {
    if (!this.inner.readMany) return this.inner.read();
    const { count } = this.policy;
    return this.inner.readMany(count > 0 ? Math.max(1, Math.min(MAX_GROUP, count - collected)) : MAX_GROUP);
  }

  /** Adds the group's batches from `from` until the policy flushes; the rest is kept for later. */
  private addGroup(state: Collecting, group: TransactionGroup, from: number): boolean {
    const { batches } = group;
    const settle = (err: Error | null, settled: readonly Message[][]) => group.ack(err, settled);
    if (state.parts.length === 0) state.deadline = Date.now() + this.policy.periodMs;
    for (let i = from; i < batches.length; i++) {
      const batch = batches[i]!;
      state.count += batch.length;
      if (this.policy.byteSize > 0) state.bytes += byteSizeOf(batch);
      if (this.flushes(batch, state, batches, from, i)) {
        const whole = from === 0 && i + 1 === batches.length;
        state.parts.push(new Part(whole ? batches : batches.slice(from, i + 1), settle));
        if (i + 1 < batches.length) this.leftover = { group, from: i + 1 };
        return true;
      }
    }
    state.parts.push(new Part(from === 0 ? batches : batches.slice(from), settle));
    return false;
  }

  private add(state: Collecting, part: Part, batch: Message[]): boolean {
    if (state.parts.length === 0) state.deadline = Date.now() + this.policy.periodMs;
    state.parts.push(part);
    state.count += batch.length;
    if (this.policy.byteSize > 0) state.bytes += byteSizeOf(batch);
    return this.flushes(batch, state, null, 0, 0);
  }

  /** The read, unless the period (null: none) runs out or the inner input reports exhaustion. */
  private raceWake<T>(
    read: Promise<T>,
    periodLeftMs: number | null,
  ): Promise<T | typeof TIMED_OUT | typeof WOKEN> {
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

  /**
   * Whether the batch must go now that `last` was added. `group`/`from`/`at`: `last` is batch `at`
   * of a group whose batches from `from` are not yet among the collected parts.
   */
  private flushes(
    last: Message[],
    state: Collecting,
    group: Message[][] | null,
    from: number,
    at: number,
  ): boolean {
    const { policy } = this;
    if (policy.count > 0 && state.count >= policy.count) return true;
    if (policy.byteSize > 0 && state.bytes >= policy.byteSize) return true;
    if (policy.check && last.length > 0) {
      const all = flatten(state.parts);
      if (group) for (let i = from; i <= at; i++) for (const m of group[i]!) all.push(m);
      try {
        return policy.check.query(all, all.length - 1) === true;
      } catch {
        return false;
      }
    }
    return false;
  }
}

/** The batch being assembled. */
class Collecting {
  parts: Part[] = [];
  count = 0;
  bytes = 0;
  deadline = 0;
}

function flatten(parts: readonly Part[]): Message[] {
  const out: Message[] = [];
  for (const p of parts) for (const b of p.batches) for (let i = 0; i < b.length; i++) out.push(b[i]!);
  return out;
}

function byteSizeOf(batch: Message[]): number {
  let n = 0;
  for (const m of batch) n += m.byteSize();
  return n;
}

/**
 * One ack for a grouped batch: settles every part in it with the same outcome (one call per part,
 * whatever its number of batches), except when the output names the messages that failed (a
 * BatchError on this very batch): then only the batches holding one of them are nacked, and the
 * others, delivered, are acked.
 */
function combinedAck(parts: Part[], messages: Message[]): AckFn {
  return async (err) => {
    const failedAt = err ? failedMessages(err, messages) : null;
    if (failedAt === null) {
      const outcomes: unknown[] = [];
      for (const p of parts) outcomes.push(p.settle(err, p.batches));
      await Promise.all(outcomes);
      return;
    }
    const reason = wholeFailure(err);
    const outcomes: unknown[] = [];
    let start = 0;
    let next = 0;
    for (const part of parts) {
      const delivered: Message[][] = [];
      for (const batch of part.batches) {
        const end = start + batch.length;
        const failed: number[] = [];
        while (next < failedAt.length && failedAt[next]! < end) failed.push(failedAt[next++]! - start);
        if (failed.length === 0) delivered.push(batch);
        else outcomes.push(part.settle(partialError(batch, failed, reason), [batch]));
        start = end;
      }
      if (delivered.length > 0) outcomes.push(part.settle(null, delivered));
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
