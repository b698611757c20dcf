// Turns a connector's OutputWriter into an engine Output: connects with backoff, reconnects
// when a write reports a lost connection, bounds concurrent writes by max_in_flight, applies the
// batching policy, and counts metrics. A failed write rejects so the caller nacks the source.
import type { Logger } from 'pino';
import type { Batch, Message } from '../message/message.js';
import { sleep } from './backoff.js';
import { failedBatches, failedMessages, partialGroupError, wholeFailure } from './batch_error.js';
import { Batcher, type BatchPolicy, isNoopPolicy } from './batching.js';
import type { ConnectionStatus, Output, OutputWriter } from './component.js';
import { ConnectionState } from './connection_state.js';
import type { Counter, MetricsScope, Timer } from './context.js';
import { errorMessage, NotConnectedError, STOPPED } from './errors.js';
import { OrderedSlots } from './ordered_slots.js';
import { stopController } from './stop_signal.js';

export interface OutputIdentity {
  label: string;
  path: string;
  logger: Logger;
  metrics: MetricsScope;
  /** Fired when the owning stream is force-stopped: connect loops and pending work give up. */
  signal?: AbortSignal;
}

export class WriterOutput implements Output {
  private readonly link: ConnectionState;
  private connecting: Promise<boolean> | null = null;
  private closing = false;
  private readonly slots: OrderedSlots;
  private readonly batcher: Batcher | null;
  private readonly stopController = stopController();
  /** Writes started and not yet settled; close() waits for them (a count: no object per write). */
  private inFlight = 0;
  private inFlightDrained: Array<() => void> = [];
  private readonly sent: Counter;
  private readonly batchSent: Counter;
  private readonly errors: Counter;
  private readonly latency: Timer;

  constructor(
    private readonly writer: OutputWriter,
    private readonly id: OutputIdentity,
    maxInFlight = 1,
    policy?: BatchPolicy,
  ) {
    this.slots = new OrderedSlots(Math.max(1, maxInFlight));
    this.batcher = policy && !isNoopPolicy(policy) ? new Batcher(policy, (b) => this.send(b)) : null;
    this.sent = id.metrics.counter('output_sent');
    this.batchSent = id.metrics.counter('output_batch_sent');
    this.errors = id.metrics.counter('output_error');
    this.latency = id.metrics.timer('output_latency_ns');
    this.link = new ConnectionState(id, 'output');
    id.signal?.addEventListener('abort', () => this.stopController.abort(STOPPED), { once: true });
    // Groups go into the batching policy as one run of messages, or to a writer that takes them in
    // one call; otherwise the stream writes batch by batch, each settled on its own.
    if (this.batcher) this.writeGroup = this.batchGroup;
    else if (writer.writeGroup) this.writeGroup = this.sendGroup;
    writer.onConnectionLost?.(this.lostWhileIdle);
    // Connect eagerly so /ready reflects the real state before the first message.
    this.ensureConnected().catch(() => undefined);
  }

  writeGroup?: (batches: readonly Batch[]) => Promise<void>;

  private readonly sendGroup = (batches: readonly Batch[]): Promise<void> => {
    if (this.closing) return Promise.reject(new Error('output is closed'));
    return this.send(batches, true);
  };

  /**
   * Every message of the group into the batcher; settles once all were delivered. When some
   * output batches failed, rejects with a GroupWriteError naming only the group's batches that
   * had messages in them: the others were delivered and are acked, not written again.
   */
  private readonly batchGroup = (batches: readonly Batch[]): Promise<void> => {
    if (this.closing) return Promise.reject(new Error('output is closed'));
    const messages: Message[] = [];
    for (let i = 0; i < batches.length; i++) for (const m of batches[i]!) messages.push(m);
    return this.batcher!.add(messages).catch((err: unknown) => {
      throw groupFailure(err, batches, messages);
    });
  };

  write(batch: Batch): Promise<void> {
    if (this.closing) return Promise.reject(new Error('output is closed'));
    return this.batcher ? this.batcher.add(batch) : this.send(batch);
  }

  async flush(): Promise<void> {
    if (this.batcher?.hasPending()) await this.batcher.flush();
  }

  statuses(): ConnectionStatus[] {
    return this.link.statuses();
  }

  async close(): Promise<void> {
    if (this.batcher?.hasPending()) await this.batcher.flush().catch(() => undefined);
    this.closing = true;
    if (this.inFlight > 0) await new Promise<void>((resolve) => this.inFlightDrained.push(resolve));
    this.stopController.abort(STOPPED);
    try {
      await this.writer.close();
    } catch (err) {
      this.id.logger.warn(`failed to close output: ${errorMessage(err)}`);
    }
    this.link.connected = false;
  }

  private readonly untrack = () => {
    if (--this.inFlight === 0 && this.inFlightDrained.length > 0)
      for (const wake of this.inFlightDrained.splice(0)) wake();
  };

  /** `what` is one batch, or a group of batches when `group` (one writer call, metrics per group). */
  private send(batch: Batch): Promise<void>;
  private send(batches: readonly Batch[], group: true): Promise<void>;
  private send(what: Batch | readonly Batch[], group = false): Promise<void> {
    this.inFlight++;
    // The usual case, connected with a slot free: one writer call and one promise on it (no async
    // frame, no awaits: an HTTP request paid four promises here).
    if (this.link.connected && this.slots.tryTake(1)) return this.writeHeld(what, group);
    const wait = this.slots.acquire();
    const work = wait ? wait.then(() => this.sendHeld(what, group)) : this.sendHeld(what, group);
    work.then(this.untrack, this.untrack);
    return work;
  }

  /** One writer call with a slot held and the output connected; releases both when it settles. */
  private writeHeld(what: Batch | readonly Batch[], group: boolean): Promise<void> {
    const started = performance.now();
    let written: Promise<void>;
    try {
      written = this.callWriter(what, group);
    } catch (err) {
      written = Promise.reject(err);
    }
    return written.then(
      () => {
        this.delivered(what, group, started);
        this.slots.release();
        this.untrack();
      },
      (err: unknown) => {
        if (err instanceof NotConnectedError && !this.stopController.signal.aborted) {
          // Reconnect and write again, still holding the slot (as sendHeld does).
          this.markLost(err);
          const retried = this.sendHeld(what, group);
          retried.then(this.untrack, this.untrack);
          return retried;
        }
        this.slots.release();
        this.untrack();
        this.failedWrite(err, what, group);
        throw err instanceof Error ? err : new Error(String(err));
      },
    );
  }

  /** Writes with a slot held, connecting (again) first when needed; releases the slot at the end. */
  private async sendHeld(what: Batch | readonly Batch[], group: boolean): Promise<void> {
    try {
      for (;;) {
        if (!this.link.connected && !(await this.ensureConnected()))
          throw new Error('output closed before delivery');
        const started = performance.now();
        try {
          await this.callWriter(what, group);
        } catch (err) {
          if (err instanceof NotConnectedError && !this.stopController.signal.aborted) {
            this.markLost(err);
            continue;
          }
          this.failedWrite(err, what, group);
          throw err instanceof Error ? err : new Error(String(err));
        }
        this.delivered(what, group, started);
        return;
      }
    } finally {
      this.slots.release();
    }
  }

  private callWriter(what: Batch | readonly Batch[], group: boolean): Promise<void> {
    return group ? this.writer.writeGroup!(what as readonly Batch[]) : this.writer.write(what as Batch);
  }

  /** Counts a write that went through; `started` is its performance.now() (a double: no BigInt). */
  private delivered(what: Batch | readonly Batch[], group: boolean, started: number): void {
    this.latency.observeNs(Math.round((performance.now() - started) * 1e6));
    this.sent.inc(messagesIn(what, group));
    this.batchSent.inc(group ? what.length : 1);
  }

  /** Counts a failed write: only the failed messages when the writer says some were delivered. */
  private failedWrite(err: unknown, what: Batch | readonly Batch[], group: boolean): void {
    const total = messagesIn(what, group);
    let failedCount = total;
    if (!group) failedCount = failedMessages(err, what as Batch)?.length ?? total;
    else {
      const failed = failedBatches(err, what as readonly Batch[]);
      if (failed)
        failedCount = messagesIn(
          failed.map((i) => (what as readonly Batch[])[i]!),
          true,
        );
    }
    this.errors.inc(failedCount);
    if (failedCount < total) this.sent.inc(total - failedCount);
  }

  /** The writer saw its connection drop: report it now and reconnect without waiting for a write. */
  private readonly lostWhileIdle = (err: Error): void => {
    if (this.closing || this.stopController.signal.aborted) return;
    this.markLost(err);
    this.ensureConnected().catch(() => undefined);
  };

  private markLost(err: Error): void {
    if (!this.link.connected) return;
    this.link.lost(err.message, 'output lost connection');
  }

  /** One connect loop shared by every writer waiting on it; false once stopped. */
  private ensureConnected(): Promise<boolean> {
    if (this.link.connected) return Promise.resolve(true);
    if (!this.connecting) {
      this.connecting = this.connectLoop().finally(() => {
        this.connecting = null;
      });
    }
    return this.connecting;
  }

  private async connectLoop(): Promise<boolean> {
    const backoff = ConnectionState.reconnectBackoff();
    for (;;) {
      if (this.stopController.signal.aborted) return false;
      try {
        await this.writer.connect();
        this.link.up();
        return true;
      } catch (err) {
        // Closed while connecting (a stream whose input was empty ends at once): the attempt
        // failed because the writer was closed under it, which is no connection error to report.
        if (this.closing) return false;
        const wait = this.link.failed(err, backoff);
        if (!(await sleep(wait, this.stopController.signal))) return false;
      }
    }
  }
}

/** What failed of a group written as one run of `messages`: the batches holding a failed message. */
function groupFailure(err: unknown, group: readonly Batch[], messages: Batch): Error {
  const failedAt = failedMessages(err, messages);
  if (failedAt === null) return wholeFailure(err);
  const failed: number[] = [];
  let batch = 0;
  let end = group[0]!.length;
  for (const at of failedAt) {
    while (at >= end) end += group[++batch]!.length;
    if (failed[failed.length - 1] !== batch) failed.push(batch);
  }
  return partialGroupError(group, failed, wholeFailure(err));
}

/** The messages of one batch, or of every batch of a group. */
function messagesIn(what: Batch | readonly Batch[], group: boolean): number {
  if (!group) return what.length;
  const batches = what as readonly Batch[];
  let messages = 0;
  for (let i = 0; i < batches.length; i++) messages += batches[i]!.length;
  return messages;
}
