// One scanned byte stream as inputs consume it: messages handed out one transaction at a
// time (as Benthos does, so batch-aware processors see the same batches), with the acks of
// every message counted so the source can be finished (e.g. deleted) once all are delivered.
import type { AckFn, GroupAckFn, Transaction } from '../../engine/component.js';
import type { Batch, Message } from '../../message/message.js';

export interface ScannedSourceHooks {
  /** Called on every message before it is handed out (sets source metadata). */
  decorate?(msg: Message): void;
  /** Called once: the stream is exhausted and every message was acked; `err` is the first nack. */
  finished?(err: Error | null): void | Promise<void>;
}

export class ScannedSource {
  private readonly iterator: AsyncIterator<Message[]>;
  private buffered: Message[] = [];
  private position = 0;
  private outstanding = 0;
  private exhausted = false;
  private firstError: Error | null = null;
  private finishCalled = false;
  private readonly ack: AckFn;
  /** Settles several messages at once (groups): counted like ack(), by the number of batches. */
  private readonly ackMany: GroupAckFn = (err, batches) => {
    if (err && !this.firstError) this.firstError = err;
    this.outstanding -= batches.length;
    return this.maybeFinish();
  };

  constructor(
    messages: AsyncIterable<Message[]>,
    private readonly hooks: ScannedSourceHooks = {},
  ) {
    this.iterator = messages[Symbol.asyncIterator]();
    // One ack function for every message of this source: acks are counted, not identified.
    this.ack = (err) => {
      if (err && !this.firstError) this.firstError = err;
      this.outstanding--;
      return this.maybeFinish();
    };
  }

  /** The next message as a transaction of one, or null once the stream is exhausted. */
  async next(): Promise<Transaction | null> {
    while (this.position >= this.buffered.length) {
      if (this.exhausted) return null;
      const step = await this.iterator.next();
      if (step.done) {
        this.exhausted = true;
        this.buffered = [];
        this.position = 0;
        await this.maybeFinish();
        return null;
      }
      this.buffered = step.value;
      this.position = 0;
    }
    const msg = this.buffered[this.position++] as Message;
    this.hooks.decorate?.(msg);
    this.outstanding++;
    return { batch: [msg], ack: this.ack };
  }

  /** The next message if the current chunk still holds one (no await), else undefined. */
  nextBuffered(): Transaction | undefined {
    if (this.position >= this.buffered.length) return undefined;
    const msg = this.buffered[this.position++] as Message;
    this.hooks.decorate?.(msg);
    this.outstanding++;
    return { batch: [msg], ack: this.ack };
  }

  /**
   * Up to `max` buffered messages, each a batch of one, with the ack that settles any of them
   * (InputReader.readBufferedGroup); undefined when fewer than two are buffered.
   */
  bufferedGroup(max: number): { batches: Batch[]; ack: GroupAckFn } | undefined {
    const end = Math.min(this.buffered.length, this.position + max);
    if (end - this.position < 2) return undefined;
    const batches: Batch[] = new Array(end - this.position);
    const decorate = this.hooks.decorate;
    for (let i = 0; this.position < end; i++) {
      const msg = this.buffered[this.position++] as Message;
      decorate?.(msg);
      batches[i] = [msg];
    }
    this.outstanding += batches.length;
    return { batches, ack: this.ackMany };
  }

  /** Stops scanning (closes the underlying stream through the iterator's return). */
  async close(): Promise<void> {
    this.exhausted = true;
    await this.iterator.return?.();
  }

  private async maybeFinish(): Promise<void> {
    if (!this.exhausted || this.outstanding > 0 || this.finishCalled) return;
    this.finishCalled = true;
    await this.hooks.finished?.(this.firstError);
  }
}
