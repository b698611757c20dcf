// The windowing of the `system_window` buffer, on a clock in nanoseconds: messages wait in memory
// (their input unacknowledged) until the system clock passes the end of their window, then the
// window's messages come out as one batch; their acks go back to the input once it is delivered.
import type { Buffer, Transaction } from '../../engine/component.js';
import type { Batch, Message } from '../../message/message.js';
import { Timestamp } from '../../message/value.js';
import { formatTimestamp } from '../../message/value_format.js';

/** Nanoseconds since the Unix epoch. */
export type Clock = () => bigint;
/** Waits `ns` nanoseconds, or less when `wake` fires first. */
export type Sleep = (ns: bigint, wake: Promise<void>) => Promise<void>;

export const systemClock: Clock = () => BigInt(Date.now()) * 1_000_000n;

export const realSleep: Sleep = (ns, wake) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, Math.ceil(Number(ns) / 1e6));
    void wake.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });

/** Nanoseconds from Go's zero time (year 1) to the Unix epoch: Go's Round counts from there. */
const GO_ZERO_OFFSET = 62_135_596_800n * 1_000_000_000n;

/** Go's time.Round: the nearest multiple of d counted from Go's zero time, halves rounding up. */
export function goRound(t: bigint, d: bigint): bigint {
  if (d <= 0n) return t;
  const abs = t + GO_ZERO_OFFSET;
  let r = abs % d;
  if (r < 0n) r += d;
  return r + r < d ? t - r : t + (d - r);
}

export interface WindowTimes {
  size: bigint;
  slide: bigint;
  offset: bigint;
  allowedLateness: bigint;
}

interface Pending {
  ts: bigint;
  msg: Message;
  ack: (err: Error | null) => void;
}

export const WINDOW_CLOSED = 'message rejected as window did not complete';

/** Settles `txn` once every one of `count` parts was settled, with the first error among them. */
function combinedAck(txn: Transaction, count: number): () => (err: Error | null) => void {
  let left = count;
  let first: Error | null = null;
  return () => {
    let done = false;
    return (err) => {
      if (done) return;
      done = true;
      if (err && !first) first = err;
      if (--left === 0) void txn.ack(first);
    };
  };
}

export class SystemWindowBuffer implements Buffer {
  private latestFlushedEnd = -(2n ** 62n);
  private oldest: bigint;
  private pending: Pending[] = [];
  private ended = false;
  private closed = false;
  private wakeUp!: () => void;
  private wake: Promise<void>;
  /** Reads run one at a time: each decides about the windows as of its own clock reading. */
  private readChain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly timestampOf: (batch: Batch, index: number) => bigint,
    private readonly times: WindowTimes,
    private readonly clock: Clock = systemClock,
    private readonly sleep: Sleep = realSleep,
    private readonly onError: (err: Error) => void = () => {},
  ) {
    this.oldest = clock();
    this.wake = this.newWake();
  }

  private newWake(): Promise<void> {
    return new Promise((resolve) => {
      this.wakeUp = resolve;
    });
  }

  /** The previous and the next window, as the reference computes them from the clock. */
  windows(): { prevStart: bigint; prevEnd: bigint; start: bigint; end: bigint } {
    const { size, slide, offset } = this.times;
    const now = this.clock();
    const epoch = slide > 0n ? slide : size;
    let start = goRound(this.clock(), epoch) + 1n + offset;
    if (start > now) start -= epoch;
    if (slide > 0n) start += slide - size;
    const end = start + size - 1n;
    return { prevStart: start - epoch, prevEnd: end - epoch, start, end };
  }

  async write(txn: Transaction): Promise<void> {
    if (this.closed || this.ended) throw new Error('buffer is closed');
    const { prevStart } = this.windows();
    if (this.latestFlushedEnd < prevStart && this.oldest < prevStart) this.dropOlderThan(prevStart);

    let stamps: bigint[];
    try {
      stamps = txn.batch.map((_, i) => this.timestampOf(txn.batch, i));
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      this.onError(new Error(`Timestamp mapping failed for message: ${error.message}`));
      await txn.ack(error);
      return;
    }
    const kept = stamps.map((ts, i) => [ts, i] as const).filter(([ts]) => ts > this.latestFlushedEnd);
    if (kept.length === 0) {
      await txn.ack(null);
      return;
    }
    const derive = combinedAck(txn, kept.length);
    for (const [ts, i] of kept) {
      this.pending.push({ ts, msg: txn.batch[i]!, ack: derive() });
      if (ts < this.oldest) this.oldest = ts;
    }
  }

  /** Windows older than the previous one are given up under back pressure (acked, as dropped). */
  private dropOlderThan(prevStart: bigint): void {
    let oldest = this.clock();
    const kept: Pending[] = [];
    for (const p of this.pending) {
      if (p.ts < prevStart) {
        p.ack(null);
        continue;
      }
      kept.push(p);
      if (p.ts < oldest) oldest = p.ts;
    }
    this.pending = kept;
    this.oldest = oldest;
  }

  read(): Promise<Transaction | null> {
    const next = this.readChain.then(() => this.readOne());
    this.readChain = next.catch(() => undefined);
    return next;
  }

  private async readOne(): Promise<Transaction | null> {
    if (this.closed) return null;
    const first = this.windows();
    if (this.latestFlushedEnd < first.prevStart) {
      const txn = this.flush(first.prevStart, first.prevEnd);
      if (txn) return txn;
    }
    let { start, end } = first;
    for (;;) {
      if (this.ended || this.closed) return this.finish();
      const wait = end - this.clock() + this.times.allowedLateness;
      if (wait > 0n) await this.sleep(wait, this.wake);
      if (this.ended || this.closed) return this.finish();
      const txn = this.flush(start, end);
      if (txn) return txn;
      ({ start, end } = this.windows());
    }
  }

  /** End of input: what is still waiting for its window is nacked, to be consumed again later. */
  private finish(): null {
    const closed = new Error(WINDOW_CLOSED);
    for (const p of this.pending.splice(0)) p.ack(closed);
    return null;
  }

  private flush(start: bigint, end: bigint): Transaction | null {
    const nextStart = start + (this.times.slide > 0n ? this.times.slide : this.times.size);
    const batch: Message[] = [];
    const acks: Array<(err: Error | null) => void> = [];
    const kept: Pending[] = [];
    let oldest = this.clock();
    const endText = formatTimestamp(new Timestamp(end));
    for (const p of this.pending) {
      const flush = p.ts >= start && p.ts <= end;
      const preserve = p.ts >= nextStart;
      if (flush) {
        const copy = p.msg.copy();
        copy.setMeta('window_end_timestamp', endText);
        batch.push(copy);
        acks.push(p.ack);
      }
      if (preserve) {
        if (p.ts < oldest) oldest = p.ts;
        kept.push(p);
      }
      if (!flush && !preserve) p.ack(null);
    }
    this.pending = kept;
    this.latestFlushedEnd = end;
    this.oldest = oldest;
    if (batch.length === 0) return null;
    return {
      batch,
      ack: async (err) => {
        for (const ack of acks) ack(err);
      },
    };
  }

  endOfInput(): void {
    this.ended = true;
    this.wakeUp();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wakeUp();
    this.finish();
  }
}
