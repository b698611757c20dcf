// One file (over 400 lines): the stages of one stream share its lifetime and stop deadline.
// One running stream: input -> buffer -> pipeline threads -> output, its lifetime, readiness and
// graceful stop. A transaction is acknowledged upstream only after every batch derived from it
// was written; whatever is still in flight when the stop deadline passes is nacked.
import { availableParallelism } from 'node:os';
import type { Logger } from 'pino';
import type { Batch } from '../message/message.js';
import { ADMITTED_BYTES, admittedTransactions } from './admission.js';
import { failedBatches, wholeFailure } from './batch_error.js';
import type { ComponentBuilder } from './builder.js';
import type {
  Buffer,
  ConnectionStatus,
  Input,
  Output,
  Processor,
  Transaction,
  TransactionGroup,
} from './component.js';
import type { ComponentConfig } from './context.js';
import { asError, errorMessage, STOPPED } from './errors.js';
import { inheritResponseStore } from './inherit_response_store.js';
import { runProcessors } from './observed_processor.js';
import { OrderedSlots } from './ordered_slots.js';
import { PauseGate } from './pause_gate.js';
import { IN_FLIGHT, spreadsWork, staysOnMain, ThreadPool, threadCount } from './threads/pool.js';
import { dropSpareThread, pipelineWorkersSetting } from './threads/spare_thread.js';
import type { Outcome } from './threads/wire.js';
import { TimeSlicer } from './time_slicer.js';
import { timerDelay } from './timer_delay.js';

export interface StreamComponents {
  input: ComponentConfig;
  /** null (or a `none` buffer) reads the input directly. */
  buffer: ComponentConfig | null;
  pipeline: {
    threads: number;
    processors: ComponentConfig[];
    /**
     * Whether the config sets `threads` itself. Only then do the processors run on pipeline
     * threads (see docs/notes/perf.md): the reference's default, -1, means every core, but
     * threads reorder messages and cost a start-up, so a config must ask for them.
     */
    threadsWritten?: boolean;
  };
  output: ComponentConfig;
}

/**
 * When every transaction slot (admission.ts) is taken and none was freed for this long, the
 * output's partial batches are written: a policy that wants more than the slots can hold (a
 * `byte_size` of many small messages, a count beyond MAX_ADMITTED, no `period`) would otherwise
 * wait for messages that the stream can no longer admit, and the stream would stall for good.
 */
const STALLED_FLUSH_MS = 50;
/** The most transactions a worker takes from an input's memory at once (see TransactionGroup). */
const MAX_GROUP = 256;
/**
 * The fewest messages worth a crossing to a pipeline thread: below it the main thread runs them
 * itself. Packing, posting and answering cost more than a mapping saves on a handful (an
 * `http_server` -> mapping stream with `threads: 2` served 35% fewer requests when every single
 * request crossed).
 */
const MIN_CROSSING = 16;

export class Stream {
  readonly startedNs = process.hrtime.bigint();
  /** The same moment on the wall clock (ms since the epoch), for status reports. */
  readonly startedAtMs = Date.now();
  private endedNs: bigint | null = null;
  private readonly pending = new Set<PendingTxn>();

  /** Transactions dispatched to the output and not yet settled (a group counts each of its own). */
  get transactionsInFlight(): number {
    let count = 0;
    for (const p of this.pending) count += p.weight;
    return count;
  }

  /** Transactions the stop nacked because they had not finished within its timeout (0 if none). */
  get nackedAtStop(): number {
    return this.nackedByStop;
  }
  private nackedByStop = 0;
  /** Transactions waiting for the output (see admission.ts). */
  private readonly slots: OrderedSlots;
  /**
   * An input that always has a message ready (`generate` with no interval) would keep the read
   * loops in microtasks for good: `/ping`, `/metrics` and SIGTERM waited for the stream's end.
   * The loops give the event loop a turn when a 20 ms slice is used up (TimeSlicer.tick).
   */
  private readonly turns = new TimeSlicer();
  /** Transactions settled so far: the stall check compares it across STALLED_FLUSH_MS. */
  private settledCount = 0;
  private stallCheck: NodeJS.Timeout | null = null;
  private stallFlush: Promise<void> | null = null;
  private readonly settledWaiters: Array<() => void> = [];
  private stopping = false;
  private lastErrorText: string | null = null;
  private lastErrorLogged = 0;
  private runPromise: Promise<void> | null = null;
  private stopPromise: Promise<void> | null = null;
  private flushing: Promise<void> | null = null;
  private readonly gate = new PauseGate();
  /** The input said it has nothing more to read (replays of nacked batches may still come). */
  private inputExhausted = false;
  /** One input of a sequence is exhausted and the next waits for its acks: flush every write. */
  private partExhausted = false;

  private constructor(
    private readonly input: Input,
    private readonly buffer: Buffer | null,
    private readonly processors: Processor[],
    private readonly output: Output,
    private readonly threads: number,
    private readonly logger: Logger,
    private readonly abort: AbortController,
    /** The pipeline threads the processors run on, or null: on the main thread. */
    private readonly pool: ThreadPool | null,
    admitted: number,
  ) {
    this.slots = new OrderedSlots(admitted, ADMITTED_BYTES);
  }

  /** Worker threads that run the processors beside the main thread (`threads` - 1; 0: none). */
  get pipelineThreads(): number {
    return this.pool?.size ?? 0;
  }

  /** How many groups the pipeline threads answered so far (the rest ran on the main thread). */
  get pipelineThreadGroups(): number {
    return this.pool?.answered ?? 0;
  }

  /** Settles once the pipeline threads are ready (or were given up): until then groups run here. */
  whenPipelineThreadsStarted(): Promise<void> {
    return this.pool?.started ?? Promise.resolve();
  }

  /** For tests: makes one pipeline thread crash. */
  crashPipelineThread(): void {
    this.pool?.crashOne();
  }

  /** Builds every component; on failure closes what was built and throws. */
  static async build(
    components: StreamComponents,
    builder: ComponentBuilder,
    logger: Logger,
    abort: AbortController,
    /** `pipelineThreads: false` for a stream that is only built to be checked, never run. */
    options: { pipelineThreads?: boolean } = {},
  ): Promise<Stream> {
    const closers: Array<() => Promise<void>> = [];
    try {
      const output = await builder.buildOutput(components.output);
      closers.push(() => output.close());
      const processors = await builder.buildProcessors(components.pipeline.processors);
      closers.push(async () => {
        for (const p of processors) await p.close();
      });
      let buffer: Buffer | null = null;
      if (components.buffer && components.buffer.type !== 'none') {
        buffer = (await builder.buildBuffer(components.buffer)) as Buffer;
        const built = buffer;
        closers.push(() => built.close());
      }
      const pool = startPool(
        components.pipeline,
        components.output,
        builder,
        logger,
        options.pipelineThreads !== false,
      );
      if (pool) closers.push(() => pool.close());
      const input = await builder.buildInput(components.input);
      // On pipeline threads, IN_FLIGHT loops per thread keep each busy while other groups cross;
      // one more runs groups here when every thread holds IN_FLIGHT.
      const threads = pool
        ? pool.wanted * IN_FLIGHT + 1
        : components.pipeline.threads > 0
          ? components.pipeline.threads
          : 2;
      const admitted = admittedTransactions(components.output.config);
      return new Stream(input, buffer, processors, output, threads, logger, abort, pool, admitted);
    } catch (err) {
      abort.abort(STOPPED);
      for (const close of closers.reverse()) await close().catch(() => undefined);
      throw err;
    }
  }

  /** Releases a stream that was built but never run (a config checked before an update). */
  async dispose(): Promise<void> {
    this.abort.abort(STOPPED);
    await this.input.close().catch(() => undefined);
    await this.closeRest();
    this.markEnded();
  }

  /** Starts consuming; the promise settles when the stream has finished (by itself or stopped). */
  run(): Promise<void> {
    if (!this.runPromise) this.runPromise = this.consume();
    return this.runPromise;
  }

  get active(): boolean {
    return this.endedNs === null;
  }

  uptimeNs(): bigint {
    return (this.endedNs ?? process.hrtime.bigint()) - this.startedNs;
  }

  statuses(): ConnectionStatus[] {
    return [...this.input.statuses(), ...this.output.statuses()];
  }

  /** Connected end to end (finished streams count as not connected). */
  isReady(): boolean {
    return this.active && this.statuses().every((s) => s.connected);
  }

  lastError(): string | null {
    return this.lastErrorText;
  }

  /** Stops reading the input until resume(); what was read goes on to the output (pause_gate.ts). */
  pause(): boolean {
    return this.active && this.gate.pause();
  }

  resume(): boolean {
    return this.gate.resume();
  }

  /** When the current pause began (ms since the epoch), or null when not paused. */
  get pausedSince(): number | null {
    return this.gate.since;
  }

  /**
   * Stops reading, lets in-flight messages finish within the deadline, then nacks what is left
   * and closes everything. A timeout of 0 forces an immediate close.
   */
  stop(timeoutMs = 20_000): Promise<void> {
    if (!this.stopPromise) this.stopPromise = this.shutdown(timeoutMs);
    return this.stopPromise;
  }

  private async shutdown(timeoutMs: number): Promise<void> {
    this.stopping = true;
    const deadline = Date.now() + Math.max(0, timeoutMs);
    const graceful = timeoutMs > 1000 ? (timeoutMs * 3) / 4 : timeoutMs;
    const inputClosed = this.input.close();
    // Paused readers go on to find the input closed.
    this.gate.resume();
    this.buffer?.endOfInput();
    const drained = this.run();
    if (graceful > 0) await withTimeout(drained, graceful);
    if (this.pending.size > 0) {
      this.logger.warn(`stopping with ${this.pending.size} transactions in flight: nacking them`);
      this.nackedByStop = this.pending.size;
      for (const p of [...this.pending]) this.settle(p, new Error('stream stopped before delivery'));
    }
    this.abort.abort(STOPPED);
    const remaining = Math.max(0, deadline - Date.now());
    await withTimeout(Promise.allSettled([inputClosed, this.closeRest()]), Math.max(remaining, 50));
    this.markEnded();
  }

  /**
   * Flushes the output's partial batches until nothing is pending. Nested outputs may still be
   * passing the last writes along (retries, fan-out, processors) when a flush runs, so it repeats
   * while writes are outstanding.
   */
  private async flushUntilSettled(): Promise<void> {
    if (this.flushing || !this.output.flush) return this.flushing ?? undefined;
    // With nothing pending the loop below would finish before `flushing` is even assigned, and
    // the stale promise would turn every later flush into a no-op.
    if (this.pending.size === 0) return;
    const flush = this.output.flush.bind(this.output);
    this.flushing = (async () => {
      try {
        do {
          await flush().catch((e) => this.logger.warn(`flushing output: ${errorMessage(e)}`));
          if (this.pending.size === 0) break;
          await withTimeout(this.allSettled(), 50);
        } while (this.pending.size > 0);
      } finally {
        this.flushing = null;
      }
    })();
    return this.flushing;
  }

  private async consume(): Promise<void> {
    // An input that waits for its acks before it ends (to replay nacks) needs the flush first.
    this.input.onExhausted?.((event) => {
      if (event === 'resumed') {
        this.partExhausted = false;
        return;
      }
      if (event === 'part') this.partExhausted = true;
      else this.inputExhausted = true;
      void this.flushUntilSettled();
    });
    const source: Pick<Input, 'read' | 'readMany'> = this.buffer ?? this.input;
    const pump = this.buffer ? this.pumpIntoBuffer(this.buffer) : Promise.resolve();
    const workers: Promise<void>[] = [];
    for (let i = 0; i < this.threads; i++) workers.push(this.worker(source));
    await Promise.all(workers);
    await pump;
    // Nothing more will be written: a partial output batch must go now or it is never acked.
    await this.flushUntilSettled();
    await this.allSettled();
    if (!this.stopping) {
      // The input ended by itself: flush the output, then release everything.
      await this.input.close().catch((e) => this.logger.warn(`closing input: ${errorMessage(e)}`));
      await this.closeRest();
      this.markEnded();
      this.abort.abort(STOPPED);
    }
  }

  private async worker(source: Pick<Input, 'read' | 'readMany'>): Promise<void> {
    // Groups only pay off when the output takes them in one call: writing a group batch by batch
    // (fan-out, switch...) would start hundreds of writes at once and fill memory with them. On
    // pipeline threads they always do: a crossing per message cost 20x the copy (runGroupThreaded).
    const grouped =
      source.readMany !== undefined && (this.output.writeGroup !== undefined || this.pool !== null);
    const gated = this.buffer === null;
    for (;;) {
      const turn = this.turns.tick();
      if (turn) await turn;
      const closed = gated ? this.gate.whenOpen() : undefined;
      if (closed) await closed;
      const got = grouped ? source.readMany!(MAX_GROUP) : source.read();
      const next = got instanceof Promise ? await got : got;
      if (!next) return;
      if ('batches' in next) {
        await this.runGroup(next);
        continue;
      }
      const txn = next;
      let batches =
        txn.batch.length >= MIN_CROSSING && this.pool?.hasRoom()
          ? this.runThreaded(txn.batch)
          : this.runPipeline(txn.batch);
      if (batches instanceof Promise) batches = await batches;
      if (batches instanceof Error) {
        await txn.ack(batches);
        continue;
      }
      if (batches.length === 0) {
        // Everything was filtered or deleted on purpose: that counts as delivered.
        await txn.ack(null);
        continue;
      }
      const out = batches;
      const bytes = batchBytes(txn.batch);
      if (this.slots.tryTake(1, bytes)) this.dispatch(txn, out, bytes);
      else await this.waitForSlots(1, bytes, () => this.dispatch(txn, out, bytes));
    }
  }

  /**
   * The worker loop for a group: every batch goes through the processors on its own (as if read
   * alone), and what survives is written with one output call (only used when the output has
   * writeGroup). A write failure nacks every batch of the group that reached the output. Before
   * waiting on an asynchronous processor, what is done so far goes out: a group of HTTP requests
   * must not hold the first answers back for the slowest part of the group.
   */
  private async runGroup(group: TransactionGroup): Promise<void> {
    if (this.processors.length === 0) return this.dispatchWhenFree(group, group.batches, group.batches);
    if (!this.pool || !worthCrossing(group)) return this.runGroupHere(group);
    if (this.pool.hasRoom()) return this.runGroupThreaded(group);
    await this.runGroupHere(group);
    // The threads' answers are events, not microtasks: groups run here back to back would hold
    // them (and starve the threads) until the input waits for I/O.
    return new Promise<void>((resolve) => setImmediate(resolve));
  }

  /** A group through the processors on this thread (see runGroup). */
  private async runGroupHere(group: TransactionGroup): Promise<void> {
    let live: Batch[] = [];
    let out: Batch[] = [];
    /** For each batch of `out`, the index in `live` of the batch it came from. */
    let origins: number[] = [];
    let filtered: Batch[] = [];
    for (const batch of group.batches) {
      let batches = this.runPipeline(batch);
      if (batches instanceof Promise) {
        if (filtered.length !== 0) group.ack(null, filtered);
        if (live.length !== 0) await this.dispatchLive(group, live, out, origins);
        live = [];
        out = [];
        origins = [];
        filtered = [];
        batches = await batches;
      }
      if (batches instanceof Error) {
        group.ack(batches, [batch]);
        continue;
      }
      if (batches.length === 0) {
        // Everything was filtered or deleted on purpose: that counts as delivered.
        filtered.push(batch);
        continue;
      }
      live.push(batch);
      for (const b of batches) {
        out.push(b);
        origins.push(live.length - 1);
      }
    }
    if (filtered.length !== 0) group.ack(null, filtered);
    if (live.length === 0) return;
    return this.dispatchLive(group, live, out, origins);
  }

  /** The whole group crosses to a pipeline thread in one message; what comes back is written as runGroup does. */
  private async runGroupThreaded(group: TransactionGroup): Promise<void> {
    let outcomes: Outcome[];
    try {
      outcomes = await this.pool!.run(group.batches);
    } catch (err) {
      // The thread crashed or was stopped: nacked, so the input delivers the group again.
      const error = asError(err);
      this.noteError(error);
      group.ack(error, group.batches);
      return;
    }
    const live: Batch[] = [];
    const out: Batch[] = [];
    const origins: number[] = [];
    const filtered: Batch[] = [];
    for (let i = 0; i < outcomes.length; i++) {
      const made = this.adoptThreaded(group.batches[i]!, outcomes[i]!);
      const batch = group.batches[i]!;
      if (made instanceof Error) {
        group.ack(made, [batch]);
        continue;
      }
      if (made.length === 0) {
        filtered.push(batch);
        continue;
      }
      live.push(batch);
      for (const b of made) {
        out.push(b);
        origins.push(live.length - 1);
      }
    }
    if (filtered.length !== 0) group.ack(null, filtered);
    if (live.length === 0) return;
    return this.dispatchLive(group, live, out, origins);
  }

  /** What a group's `live` batches became, to the output: one group write, or a write per batch. */
  private dispatchLive(
    group: TransactionGroup,
    live: Batch[],
    out: Batch[],
    origins: number[],
  ): Promise<void> {
    if (this.output.writeGroup) return this.dispatchWhenFree(group, live, out, origins);
    return this.dispatchEach(group, live, out, origins);
  }

  /**
   * A group's batches written one write each, in order, for an output without writeGroup (only
   * pipeline threads read groups for such outputs); each settles its own batch of the group.
   */
  private async dispatchEach(
    group: TransactionGroup,
    live: Batch[],
    out: Batch[],
    origins: number[],
  ): Promise<void> {
    let from = 0;
    for (let i = 0; i < live.length; i++) {
      let to = from;
      while (to < out.length && origins[to] === i) to++;
      const made = out.slice(from, to);
      from = to;
      const batch = live[i]!;
      const bytes = batchBytes(batch);
      if (this.slots.tryTake(1, bytes)) this.dispatchPart(group, batch, made, bytes);
      else await this.waitForSlots(1, bytes, () => this.dispatchPart(group, batch, made, bytes));
    }
  }

  private dispatchPart(group: TransactionGroup, batch: Batch, made: Batch[], bytes: number): void {
    const pending = new PendingTxn(null, group, [batch], 1, bytes, made, null);
    this.pending.add(pending);
    const written =
      made.length === 1 ? this.output.write(made[0]!) : Promise.all(made.map((b) => this.output.write(b)));
    this.track(pending, written);
  }

  /** One batch through the pipeline threads (as runPipeline answers). */
  private runThreaded(batch: Batch): Promise<Batch[] | Error> {
    return this.pool!.run([batch]).then(
      (outcomes) => this.adoptThreaded(batch, outcomes[0]!),
      (err: unknown) => {
        const error = asError(err);
        this.noteError(error);
        return error;
      },
    );
  }

  /** What a pipeline thread made of `from`: it answers to the same request (sync_response). */
  private adoptThreaded(from: Batch, made: Outcome): Batch[] | Error {
    if (made instanceof Error) return made;
    if (from.length > 0 && from[0]!.responseSink !== null)
      for (const b of made) inheritResponseStore(from, b);
    this.noteFlagged(made);
    return made;
  }

  /**
   * A batch through the pipeline's processors: what it became ([] when all was filtered), or the
   * error that failed it. No promise unless a processor answers asynchronously.
   */
  private runPipeline(batch: Batch): Batch[] | Error | Promise<Batch[] | Error> {
    let result: Batch[] | Promise<Batch[]>;
    try {
      result = runProcessors(this.processors, batch);
    } catch (err) {
      return asError(err);
    }
    if (result instanceof Promise) return result.then(this.adopt, asError);
    return this.adopt(result);
  }

  /**
   * Counts the failures in what the processors made (runProcessors already made it answer to the
   * request of the batch it came from, for sync_response).
   */
  private readonly adopt = (batches: Batch[]): Batch[] => {
    if (this.processors.length > 0) this.noteFlagged(batches);
    return batches;
  };

  /**
   * Writes `out` (what the `live` batches of the group became; `origins` maps one to the other,
   * null when they are the same) once slots for them are free.
   */
  private async dispatchWhenFree(
    group: TransactionGroup,
    live: Batch[],
    out: Batch[],
    origins: number[] | null = null,
  ): Promise<void> {
    const bytes = heldBytes(live);
    if (this.slots.tryTake(live.length, bytes)) this.dispatchGroup(group, live, out, origins, bytes);
    else
      await this.waitForSlots(live.length, bytes, () => this.dispatchGroup(group, live, out, origins, bytes));
  }

  private dispatchGroup(
    group: TransactionGroup,
    live: Batch[],
    out: Batch[],
    origins: number[] | null,
    bytes: number,
  ): void {
    const pending = new PendingTxn(null, group, live, live.length, bytes, out, origins);
    this.pending.add(pending);
    this.track(pending, this.output.writeGroup!(out));
  }

  private dispatch(txn: Transaction, batches: Batch[], bytes: number): void {
    const pending = new PendingTxn(txn, null, null, 1, bytes);
    this.pending.add(pending);
    const written =
      batches.length === 1
        ? this.output.write(batches[0]!)
        : Promise.all(batches.map((b) => this.output.write(b)));
    this.track(pending, written);
  }

  private track(pending: PendingTxn, written: Promise<unknown>): void {
    // A replay handed out after the input ended may land in a partial output batch after the
    // flush that followed the end was over: nothing else would write it.
    if (this.inputExhausted || this.partExhausted) void this.flushUntilSettled();
    written.then(
      () => this.settle(pending, null),
      (err: unknown) => {
        // The first failed part nacks the whole source transaction.
        const error = asError(err);
        this.noteError(error);
        this.settle(pending, error);
      },
    );
  }

  private settle(pending: PendingTxn, err: Error | null): void {
    if (pending.settled) return;
    if (pending.txn) pending.txn.ack(err).catch((e) => this.noteError(asError(e)));
    else if (err) this.nackGroup(pending, err);
    else pending.group!.ack(null, pending.batches!);
    this.finish(pending);
  }

  /**
   * A failed group write nacks only the source batches whose output failed, when the output says
   * which (a GroupWriteError): the others were delivered, and a replay would write them twice.
   */
  private nackGroup(pending: PendingTxn, err: Error): void {
    const batches = pending.batches!;
    const failedOut = failedBatches(err, pending.written!);
    if (failedOut === null) {
      pending.group!.ack(err, batches);
      return;
    }
    const failed = new Set<number>();
    for (const i of failedOut) failed.add(pending.origins ? pending.origins[i]! : i);
    const delivered = batches.filter((_, i) => !failed.has(i));
    if (delivered.length > 0) pending.group!.ack(null, delivered);
    pending.group!.ack(
      wholeFailure(err),
      batches.filter((_, i) => failed.has(i)),
    );
  }

  /** Runs `dispatch` once `weight` transaction slots are free, watching for a stall meanwhile. */
  private waitForSlots(weight: number, bytes: number, dispatch: () => void): Promise<void> {
    this.watchForStall();
    return this.slots.whenFree(weight, dispatch, bytes);
  }

  /**
   * While dispatches wait for slots, checks every STALLED_FLUSH_MS that some transaction settled;
   * when none did, flushes the output's batches (see STALLED_FLUSH_MS). One timer per stream, armed
   * only while something waits (so it keeps the process alive: there is work left).
   */
  private watchForStall(): void {
    if (this.stallCheck) return;
    const settledBefore = this.settledCount;
    this.stallCheck = setTimeout(() => {
      this.stallCheck = null;
      if (!this.slots.hasWaiting()) return;
      // One stall flush at a time: a broker's flush lasts until its partial batch is delivered,
      // which an output that is down does not do every 50 ms.
      if (this.settledCount === settledBefore && this.output.flush && !this.stallFlush) {
        this.stallFlush = this.output
          .flush()
          .catch((e) => this.logger.warn(`flushing output: ${errorMessage(e)}`))
          .finally(() => {
            this.stallFlush = null;
          });
      }
      if (this.endedNs === null) this.watchForStall();
    }, STALLED_FLUSH_MS);
  }

  private finish(pending: PendingTxn): void {
    pending.settled = true;
    this.settledCount++;
    if (this.pending.delete(pending)) this.slots.release(pending.weight, pending.bytes);
    if (this.pending.size === 0) for (const w of this.settledWaiters.splice(0)) w();
  }

  private allSettled(): Promise<void> {
    if (this.pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  private async pumpIntoBuffer(buffer: Buffer): Promise<void> {
    for (;;) {
      const turn = this.turns.tick();
      if (turn) await turn;
      const closed = this.gate.whenOpen();
      if (closed) await closed;
      const txn = await this.input.read();
      if (!txn) break;
      await buffer.write(txn);
    }
    buffer.endOfInput();
  }

  private async closeRest(): Promise<void> {
    await this.output.close().catch((e) => this.logger.warn(`closing output: ${errorMessage(e)}`));
    for (const p of this.processors) await p.close().catch(() => undefined);
    await this.pool?.close().catch(() => undefined);
    await this.buffer?.close().catch(() => undefined);
  }

  private markEnded(): void {
    if (this.endedNs === null) this.endedNs = process.hrtime.bigint();
    if (this.stallCheck) clearTimeout(this.stallCheck);
    this.stallCheck = null;
  }

  /** A message a processor failed on carries on flagged; its error still shows in the status. */
  private noteFlagged(batches: Batch[]): void {
    for (const b of batches) {
      for (const m of b) if (m.error) this.lastErrorText = `processing failed: ${m.error.message}`;
    }
  }

  /** Remembers the last delivery error for status, and logs at most one line per second. */
  private noteError(err: Error): void {
    this.lastErrorText = err.message;
    const now = Date.now();
    if (now - this.lastErrorLogged >= 1000) {
      this.lastErrorLogged = now;
      this.logger.error(`failed to deliver message: ${err.message}`);
    }
  }
}

/**
 * One transaction waiting for its output, or some batches of a group (`txn` null). A class, not a
 * literal: V8 may pretenure a literal's allocation site (see HandedOut in input_wrapper.ts).
 */
class PendingTxn {
  settled = false;

  constructor(
    readonly txn: Transaction | null,
    readonly group: TransactionGroup | null,
    readonly batches: readonly Batch[] | null,
    /** Transaction slots it holds (admission.ts). */
    readonly weight: number,
    /** Bytes of the byte budget it holds: what its input messages hold (admission.ts). */
    readonly bytes: number,
    /** A group's batches as written (what `batches` became). */
    readonly written: readonly Batch[] | null = null,
    /** For each written batch, the index in `batches` it came from; null: the same batches. */
    readonly origins: readonly number[] | null = null,
  ) {}
}

/**
 * Pipeline threads when the config asks for more than one, the processors have work to spread,
 * every one of them can cross (see threads/pool.ts), nothing needs their spans and the process has
 * a core left for them; otherwise null, with an info line saying why the processors stay here.
 */
function startPool(
  pipeline: StreamComponents['pipeline'],
  output: ComponentConfig,
  builder: ComponentBuilder,
  logger: Logger,
  withThreads: boolean,
): ThreadPool | null {
  // A thread `nekton -c` started ahead (threads/spare_thread.ts) is taken by the pool or dropped here.
  const none = () => {
    dropSpareThread();
    return null;
  };
  if (!withThreads || pipeline.processors.length === 0) return none();
  if (!pipeline.threadsWritten && pipeline.threads <= 1) return none();
  const cores = availableParallelism();
  const size = threadCount(pipeline.threads, cores);
  if (size <= 1) return none();
  const stay = (why: string) => {
    dropSpareThread();
    logger.info(`pipeline.threads ${pipeline.threads}: the processors run on the main thread: ${why}`);
    return null;
  };
  const setting = pipelineWorkersSetting();
  if (setting === 'off') return stay('NEKTON_PIPELINE_WORKERS turns worker threads off');
  const why = staysOnMain(pipeline.processors);
  if (why) return stay(why);
  // A noop copy costs ~1.2x the CPU on threads for nothing: there is no work to share.
  if (setting === 'auto' && !spreadsWork(pipeline.processors))
    return stay('they have no per-message work to spread');
  const { metrics, streamId, traced } = builder.threadEnv;
  if (traced) return stay('tracing records their spans here');
  // The main thread is one of the pipelines: it runs a group itself when every thread is busy.
  // The threads start while the stream does: until one has built the processors, the main thread
  // runs every group itself (a thread takes ~0.1-0.2 s to load the bundle and build them).
  const pool = ThreadPool.launch(
    {
      processors: pipeline.processors,
      logLevel: logger.level,
      baseDir: builder.baseDir,
      streamId,
      contentBack: !discardsContent(output),
    },
    Math.min(size - 1, cores - 1),
    cores,
    logger,
    metrics,
    (err) =>
      logger.info(
        `pipeline.threads ${pipeline.threads}: the processors run on the main thread: ${errorMessage(err)}`,
      ),
  );
  const later =
    pool.size < pool.wanted
      ? `; ${pool.wanted - pool.size} more once the process's other streams give a core back (one pipeline thread per spare core, ${cores - 1} in all)`
      : '';
  const ahead = pool.startedAhead > 0 ? ` (${pool.startedAhead} started while the config was read)` : '';
  logger.info(
    `pipeline.threads ${pipeline.threads}: the processors run on the main thread and ${pool.size} worker thread(s)${ahead}${later}`,
  );
  return pool;
}

function worthCrossing(group: TransactionGroup): boolean {
  let messages = 0;
  for (const batch of group.batches) {
    messages += batch.length;
    if (messages >= MIN_CROSSING) return true;
  }
  return false;
}

/**
 * A plain `drop` output never reads what it is given: the pipeline threads then send back the
 * shape, metadata and errors of their results but not their content, whose JSON text was a sixth
 * of a thread's time.
 */
function discardsContent(output: ComponentConfig): boolean {
  return output.type === 'drop' && output.processors.length === 0;
}

function withTimeout(work: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, timerDelay(ms));
    work.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      () => {
        clearTimeout(timer);
        resolve();
      },
    );
  });
}

/** What a batch's messages hold in bytes, as read (structured values never serialised count 0). */
function batchBytes(batch: Batch): number {
  let bytes = 0;
  for (let i = 0; i < batch.length; i++) bytes += batch[i]!.heldBytes();
  return bytes;
}

/** batchBytes of a group's batches. */
function heldBytes(batches: readonly Batch[]): number {
  let bytes = 0;
  for (let i = 0; i < batches.length; i++) bytes += batchBytes(batches[i]!);
  return bytes;
}
