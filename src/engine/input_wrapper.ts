// One file (over 400 lines): reads, replays and the acks that release the reader share one serialised state.
// Turns a connector's InputReader into an engine Input: connects with backoff (logging once per
// step), reconnects when the connection drops, serialises reads, counts metrics, optionally
// replays nacked batches itself, and releases the connection only once every batch it handed
// out has been acknowledged.
import type { Logger } from 'pino';
import { sleep } from './backoff.js';
import { failedMessages } from './batch_error.js';
import type {
  AckFn,
  ConnectionStatus,
  Input,
  InputReader,
  Transaction,
  TransactionGroup,
} from './component.js';
import { ConnectionState } from './connection_state.js';
import type { Counter, MetricsScope, Timer } from './context.js';
import { errorMessage, NotConnectedError, STOPPED } from './errors.js';
import { type ExhaustedListener, Exhaustion } from './exhaustion.js';
import { stopController } from './stop_signal.js';

export interface InputIdentity {
  label: string;
  /** Config path, e.g. `root.input`. */
  path: string;
  logger: Logger;
  metrics: MetricsScope;
  /** Fired when the owning stream is force-stopped: connect loops and pending work give up. */
  signal?: AbortSignal;
  /** Where replays that never ran before the input closed are counted (normal mode's exit status). */
  undelivered?: UndeliveredCount;
}

/** A count shared by a process's inputs: batches nacked back to their source at close. */
export interface UndeliveredCount {
  count: number;
}

interface Replay {
  txn: Transaction;
}

/** A replay waiting for its backoff to pass. */
interface DelayedReplay {
  txn: Transaction;
  timer: NodeJS.Timeout | undefined;
}

/** The longest wait before a batch nacked again and again is replayed. */
const MAX_REPLAY_DELAY_MS = 1_000;

/**
 * How long the `attempt`th replay of one batch waits: the first goes at once, then 1, 2, 4 ms ...
 * up to a second, so a message that fails every time (a strict `switch` it matches no case of, a
 * broken output) costs a retry a second, not a busy core and an error log line per microsecond.
 */
export function replayDelayMs(attempt: number): number {
  if (attempt <= 1) return 0;
  return Math.min(MAX_REPLAY_DELAY_MS, 2 ** (attempt - 2));
}

/**
 * A transaction handed to the engine. Built with `new`, not as a literal: V8 pretenures a literal's
 * allocation site once most of its objects outlive a scavenge (as in-flight requests do at start-up,
 * while the young generation is small), and a tenured object keeps the request it points to, and
 * everything younger it reaches, alive until the next full GC.
 */
class HandedOut implements Transaction {
  constructor(
    readonly batch: Transaction['batch'],
    readonly ack: AckFn,
  ) {}
}

/** What an ack that has nothing left to wait for returns. */
const SETTLED: Promise<void> = Promise.resolve();

/** What a read resolves to when a nacked batch was queued for replay while the reader waited. */
const REPLAY_QUEUED: unique symbol = Symbol('replay queued');

export class ReaderInput implements Input {
  private readonly link: ConnectionState;
  private closing = false;
  private ended = false;
  private readChain: Promise<unknown> = Promise.resolve();
  private readsInProgress = 0;
  private readonly exhaustion = new Exhaustion();
  private outstanding = 0;
  private drained: (() => void) | null = null;
  private readonly replays: Replay[] = [];
  /** Replays still waiting for their backoff; new messages are read meanwhile. */
  private readonly delayedReplays = new Set<DelayedReplay>();
  /** How many times each batch was replayed so far. */
  private readonly replayAttempts = new WeakMap<Transaction['batch'], number>();
  /** Woken whenever a handed-out batch settles (used once the source has ended). */
  private readonly ackWaiters: Array<() => void> = [];
  private readonly stopController = stopController();
  private readonly received: Counter;
  private readonly latency: Timer;
  private closed: Promise<void> | null = null;
  /** Wakes the read or connect in progress when the input is stopped (see raceStop). */
  private waitingForWork: (() => void) | null = null;
  /**
   * A reader.read() still running after a replay was handed out in its place: the next read waits
   * for it instead of calling the reader again (readers are not re-entrant).
   */
  private pendingRead: Promise<Transaction | null> | null = null;
  /** Wakes a read waiting on the reader when a nacked batch is queued for replay. */
  private replayQueued: (() => void) | null = null;

  constructor(
    private readonly reader: InputReader,
    private readonly id: InputIdentity,
    private readonly autoReplayNacks = false,
  ) {
    this.received = id.metrics.counter('input_received');
    this.latency = id.metrics.timer('input_latency_ns');
    this.link = new ConnectionState(id, 'input');
    id.signal?.addEventListener('abort', () => this.stopController.abort(STOPPED), { once: true });
    this.stopController.signal.addEventListener('abort', () => this.waitingForWork?.(), { once: true });
  }

  read(): Promise<Transaction | null> {
    // Fast path: nothing in progress and the reader already holds the next batch in memory.
    if (this.readsInProgress === 0 && this.mayTakeBuffered()) {
      const txn = this.reader.readBuffered?.();
      if (txn) {
        this.received.inc(txn.batch.length);
        return Promise.resolve(this.handOut(txn.batch, txn.ack, process.hrtime.bigint()));
      }
    }
    return this.inTurn(() => this.readOne());
  }

  /**
   * A group of buffered batches at once when nothing else is in progress, else the next read in
   * turn, which itself takes a group when the reader has buffered one by then (two workers would
   * otherwise queue reads behind each other and take a whole chunk message by message).
   */
  readMany(max: number): TransactionGroup | Promise<Transaction | TransactionGroup | null> {
    const group = this.readsInProgress === 0 ? this.takeGroup(max) : undefined;
    return (
      group ?? this.inTurn<Transaction | TransactionGroup | null>(() => this.takeGroup(max) ?? this.readOne())
    );
  }

  /** Runs `work` after every read before it: readers are not required to be re-entrant. */
  private inTurn<T>(work: () => T | Promise<T>): Promise<T> {
    this.readsInProgress++;
    const next = this.readChain.then(work);
    this.readChain = next.then(this.readDone, this.readDone);
    return next;
  }

  /** Whether the reader's buffered messages may be handed out now, ahead of any read. */
  private mayTakeBuffered(): boolean {
    return this.link.connected && !this.closing && this.replays.length === 0 && this.pendingRead === null;
  }

  private takeGroup(max: number): TransactionGroup | undefined {
    if (!this.mayTakeBuffered()) return undefined;
    const got = this.reader.readBufferedGroup?.(max);
    if (!got) return undefined;
    const { batches, ack: sourceAck } = got;
    let messages = 0;
    for (let i = 0; i < batches.length; i++) messages += batches[i]!.length;
    this.received.inc(messages);
    this.outstanding += batches.length;
    const started = process.hrtime.bigint();
    return {
      batches,
      ack: (err, settled) => {
        const count = settled.length;
        this.latency.observeNsTimes(Number(process.hrtime.bigint() - started), count);
        if (err && this.autoReplayNacks && !this.closing) {
          // Each replayed batch is read again alone and settles its own share of the source.
          for (let i = 0; i < count; i++) {
            const batch = settled[i]!;
            this.queueReplay({ batch, ack: (e) => sourceAck(e, [batch]) });
          }
          this.outstanding -= count;
          this.checkDrained();
          return;
        }
        // One source call for the whole set: a promise per group, not per message.
        const done = () => {
          this.outstanding -= count;
          this.checkDrained();
        };
        sourceAck(err, settled).then(done, (e: unknown) => {
          this.id.logger.warn(`failed to ack: ${errorMessage(e)}`);
          done();
        });
      },
    };
  }

  private readonly readDone = () => {
    this.readsInProgress--;
  };

  onExhausted(listener: ExhaustedListener): void {
    this.exhaustion.add(listener);
  }

  statuses(): ConnectionStatus[] {
    return this.link.statuses();
  }

  close(): Promise<void> {
    if (!this.closed) this.closed = this.shutdown();
    return this.closed;
  }

  private async shutdown(): Promise<void> {
    this.closing = true;
    this.stopController.abort(STOPPED);
    for (const wake of this.ackWaiters.splice(0)) wake();
    // Batches waiting for replay were never delivered: hand the nack back to the source.
    const unreplayed = this.replays.length + this.delayedReplays.size;
    if (unreplayed > 0 && this.id.undelivered) this.id.undelivered.count += unreplayed;
    for (const replay of this.replays.splice(0))
      this.settle(replay.txn.ack, new Error('input closed before replay'));
    for (const delayed of this.delayedReplays) {
      clearTimeout(delayed.timer);
      this.settle(delayed.txn.ack, new Error('input closed before replay'));
    }
    this.delayedReplays.clear();
    // A read left running when a replay took its place: whatever it brings is not delivered.
    this.pendingRead?.then(this.nackAbandoned, () => undefined);
    this.pendingRead = null;
    if (this.outstanding > 0) await new Promise<void>((resolve) => (this.drained = resolve));
    try {
      await this.reader.close();
    } catch (err) {
      this.id.logger.warn(`failed to close input: ${errorMessage(err)}`);
    }
    this.link.connected = false;
  }

  /** The next transaction: straight from the reader in the usual state, else through the loop. */
  private readOne(): Promise<Transaction | null> {
    const usual =
      this.link.connected &&
      !this.closing &&
      !this.ended &&
      !this.autoReplayNacks &&
      this.replays.length === 0 &&
      this.pendingRead === null &&
      !this.stopController.signal.aborted;
    return usual ? this.readDirect() : this.readLoop();
  }

  /**
   * One reader.read() raced against the stop, as readLoop does it, without the loop's async frames
   * (a source that waits for every message, such as an HTTP server, takes this path once per
   * message). A failure carries on in readLoop.
   */
  private readDirect(): Promise<Transaction | null> {
    let read: Promise<Transaction | null>;
    try {
      read = this.reader.read();
    } catch (err) {
      return this.readAfterFailure(err);
    }
    return this.raceStop(read, this.nackAbandoned).then(
      // undefined: the input stopped while the read waited (raceStop nacks what it brings later).
      (txn) => (txn === undefined ? null : this.took(txn)),
      (err: unknown) => this.readAfterFailure(err),
    );
  }

  /** What a read brought: a transaction handed out, or null when the source ended. */
  private took(txn: Transaction | null): Transaction | null {
    if (txn === null) {
      this.sourceEnded();
      return null;
    }
    this.received.inc(txn.batch.length);
    return this.handOut(txn.batch, txn.ack, process.hrtime.bigint());
  }

  private async readAfterFailure(err: unknown): Promise<Transaction | null> {
    return (await this.recover(err)) ? this.readLoop() : null;
  }

  private async readLoop(): Promise<Transaction | null> {
    for (;;) {
      if (this.closing) return null;
      const replay = this.replays.shift();
      if (replay) {
        // A replay waits for the next turn of the event loop: against an output that fails at
        // once, nack and replay would otherwise follow each other in one endless run of
        // microtasks, and timers, I/O and signals (SIGTERM) would never get their turn.
        await new Promise<void>((resolve) => setImmediate(resolve));
        return this.handOut(replay.txn.batch, replay.txn.ack);
      }
      if (this.ended) {
        // The source is exhausted, but a batch still in flight may be nacked and need replaying.
        if ((this.outstanding === 0 && this.delayedReplays.size === 0) || !this.autoReplayNacks) return null;
        await new Promise<void>((resolve) => this.ackWaiters.push(resolve));
        continue;
      }
      if (!this.link.connected && !(await this.connect())) return null;
      let txn: Transaction | null | undefined;
      try {
        const read = this.pendingRead ?? this.reader.read();
        this.pendingRead = null;
        const next = this.autoReplayNacks ? this.orReplay(read) : read;
        const got = await this.raceStop(next, (late) => this.abandonRead(read, late));
        if (got === REPLAY_QUEUED) {
          // A nack came back while the reader waits (an idle source): replay it now.
          this.pendingRead = read;
          continue;
        }
        txn = got;
      } catch (err) {
        if (await this.recover(err)) continue;
        return null;
      }
      if (txn === undefined) return null; // closed while reading
      // null: the source ended, but batches still in flight may yet be nacked (the ended branch
      // above waits for them).
      const handed = this.took(txn);
      if (handed !== null) return handed;
    }
  }

  /** After a failed read: false when the input is closing, else true once a read may be tried again. */
  private async recover(err: unknown): Promise<boolean> {
    if (this.closing) return false;
    if (err instanceof NotConnectedError) {
      this.link.lost(errorMessage(err), 'lost connection');
      return true;
    }
    this.id.logger.error(`failed to read message: ${errorMessage(err)}`);
    await sleep(100, this.stopController.signal);
    return true;
  }

  private sourceEnded(): void {
    this.ended = true;
    this.exhaustion.fire();
  }

  private handOut(batch: Transaction['batch'], sourceAck: AckFn, started?: bigint): Transaction {
    this.outstanding++;
    let settled = false;
    // Not an async function: no frame and no extra promise per message.
    const ack: AckFn = (err) => {
      if (settled) return SETTLED;
      settled = true;
      if (started !== undefined) this.latency.observeNs(Number(process.hrtime.bigint() - started));
      if (err && this.autoReplayNacks && !this.closing) {
        // Re-deliver from here; the source only ever sees the final success. When the output
        // named the messages that failed (a BatchError), only they are delivered again.
        this.queueReplay({ batch: this.stillUndelivered(err, batch), ack: sourceAck });
        this.sourceSettled();
        return SETTLED;
      }
      let acked: Promise<void> | undefined;
      try {
        acked = sourceAck(err);
      } catch (e) {
        this.sourceSettled();
        return Promise.reject(e);
      }
      if (typeof acked?.then !== 'function') {
        this.sourceSettled();
        return SETTLED;
      }
      return acked.then(this.sourceSettled, this.sourceSettleFailed);
    };
    return new HandedOut(batch, ack);
  }

  /** The source took the outcome of a handed-out batch (or failed to): one fewer outstanding. */
  private readonly sourceSettled = (): void => {
    this.outstanding--;
    this.checkDrained();
  };

  private readonly sourceSettleFailed = (err: unknown): never => {
    this.sourceSettled();
    throw err;
  };

  /** What of a nacked batch must be delivered again, keeping its replay count (for the backoff). */
  private stillUndelivered(err: Error, batch: Transaction['batch']): Transaction['batch'] {
    const failed = failedMessages(err, batch);
    if (failed === null) return batch;
    const rest = failed.map((i) => batch[i]!);
    const attempts = this.replayAttempts.get(batch);
    if (attempts !== undefined) this.replayAttempts.set(rest, attempts);
    return rest;
  }

  private queueReplay(txn: Transaction): void {
    const attempt = (this.replayAttempts.get(txn.batch) ?? 0) + 1;
    this.replayAttempts.set(txn.batch, attempt);
    const delay = replayDelayMs(attempt);
    if (delay === 0) {
      this.replayNow(txn);
      return;
    }
    const delayed: DelayedReplay = { txn, timer: undefined };
    delayed.timer = setTimeout(() => {
      this.delayedReplays.delete(delayed);
      this.replayNow(txn);
      // A read waiting for the last acks of an ended source takes it from the queue.
      for (const wake of this.ackWaiters.splice(0)) wake();
    }, delay);
    this.delayedReplays.add(delayed);
  }

  private replayNow(txn: Transaction): void {
    this.replays.push({ txn });
    const wake = this.replayQueued;
    this.replayQueued = null;
    wake?.();
  }

  /** The read's result, or REPLAY_QUEUED as soon as a nacked batch waits for replay. */
  private orReplay(read: Promise<Transaction | null>): Promise<Transaction | null | typeof REPLAY_QUEUED> {
    const queued = new Promise<typeof REPLAY_QUEUED>((resolve) => {
      this.replayQueued = () => resolve(REPLAY_QUEUED);
    });
    return Promise.race([read, queued]).finally(() => {
      this.replayQueued = null;
    });
  }

  /** What a read produced after the stop won: nacked; a replay signal leaves the read to finish. */
  private abandonRead(
    read: Promise<Transaction | null>,
    late: Transaction | null | typeof REPLAY_QUEUED,
  ): void {
    if (late === REPLAY_QUEUED) read.then(this.nackAbandoned, () => undefined);
    else this.nackAbandoned(late);
  }

  /** A transaction the reader produced after the input was stopped: handed back, never delivered. */
  private readonly nackAbandoned = (txn: Transaction | null) => {
    if (txn) this.settle(txn.ack, new Error('input closed before the message was processed'));
  };

  private settle(ack: AckFn, err: Error): void {
    ack(err).catch((e) => this.id.logger.warn(`failed to nack: ${errorMessage(e)}`));
  }

  private checkDrained(): void {
    for (const wake of this.ackWaiters.splice(0)) wake();
    if (this.outstanding === 0 && this.drained) {
      this.drained();
      this.drained = null;
    }
  }

  /** Connects with backoff; false when closed meanwhile. */
  private async connect(): Promise<boolean> {
    const backoff = ConnectionState.reconnectBackoff();
    for (;;) {
      if (this.closing) return false;
      try {
        await this.raceStop(this.reader.connect());
        if (this.closing) return false;
        this.link.up();
        return true;
      } catch (err) {
        if (this.closing) return false;
        const wait = this.link.failed(err, backoff);
        await sleep(wait, this.stopController.signal);
      }
    }
  }

  /**
   * Resolves undefined as soon as the input is closed, so a hung read never blocks shutdown.
   * Reads and connects are serialised, so one slot holds the waiting resolver: the abort listener
   * is registered once in the constructor instead of once per read (EventTarget calls showed up
   * in the W1 profile). `abandoned` receives a result that arrives after the stop won the race
   * (a read's transaction must then be nacked, not forgotten).
   */
  private raceStop<T>(work: Promise<T>, abandoned?: (late: T) => void): Promise<T | undefined> {
    if (this.stopController.signal.aborted) {
      work.then(
        (v) => abandoned?.(v),
        () => undefined,
      );
      return Promise.resolve(undefined);
    }
    return new Promise((resolve, reject) => {
      let stopped = false;
      const onStop = () => {
        stopped = true;
        resolve(undefined);
      };
      this.waitingForWork = onStop;
      work.then(
        (v) => {
          if (this.waitingForWork === onStop) this.waitingForWork = null;
          if (stopped) abandoned?.(v);
          else resolve(v);
        },
        (e) => {
          if (this.waitingForWork === onStop) this.waitingForWork = null;
          reject(e);
        },
      );
    });
  }
}
