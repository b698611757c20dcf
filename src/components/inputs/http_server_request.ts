// One received http_server request while it waits for the pipeline: the transaction handed to the
// engine and the way it is answered (200 or the sync response on an ack, 502 on a nack, 408 after
// the timeout, 503 at shutdown).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AckFn, Transaction } from '../../engine/component.js';
import { sendError } from '../../listener/respond.js';
import type { Batch } from '../../message/message.js';
import type { ResponseStore } from '../sync_response_store.js';

/** What an ack returns: the answer is written by the time it returns. */
export const ANSWERED: Promise<void> = Promise.resolve();

/** The reader's side of a request: how an acked one is answered, and its bookkeeping. */
export interface RequestBook {
  respond(res: ServerResponse, store: ResponseStore): void;
  forget(pending: PendingRequest): void;
}

/**
 * A class on purpose (like every per-request object that waits for the pipeline): V8 pretenures an
 * object literal's allocation site when most of its objects outlive a scavenge, which they do at
 * start-up while the young generation is still small; tenured request objects then keep every
 * younger object they point to alive until the next full GC, and the whole request graph gets
 * promoted.
 */
export class PendingRequest implements Transaction {
  /** False once the request was answered (timeout, shutdown): a later ack changes nothing. */
  private open = true;
  /** Neighbours in the reader's list of unanswered requests (arrival order). */
  older: PendingRequest | null = null;
  newer: PendingRequest | null = null;

  constructor(
    private readonly book: RequestBook,
    private readonly res: ServerResponse,
    /** Kept apart from the request: messages that outlive it (buffers) hold only the store. */
    private readonly store: ResponseStore,
    readonly batch: Batch,
    /** performance.now() after which the request is answered 408. */
    readonly deadline: number,
  ) {}

  /**
   * The ack of a request read alone, bound as the engine may call it unbound. A getter: requests
   * read in a group are answered through the group's ack and never need the closure.
   */
  get ack(): AckFn {
    return (err) => {
      try {
        this.answer(err);
      } catch (e) {
        return Promise.reject(e);
      }
      return ANSWERED;
    };
  }

  /**
   * Answers 200 (or the sync response), 502 on a nack; nothing when already answered. Not async:
   * the answer is written at once (no frame and no extra promise per request).
   */
  answer(err: Error | null): void {
    if (!this.settle()) return;
    if (err) sendError(this.res, 502, err.message);
    else this.book.respond(this.res, this.store);
  }

  /** Answers 408 (the timeout passed before the ack). */
  expire(): void {
    if (this.settle()) sendError(this.res, 408, 'Request timed out');
  }

  /** Answers 503 at shutdown: the message never reached the pipeline (or was never acked). */
  refuse(): void {
    if (this.settle()) refuse(this.res);
  }

  /** Marks the request answered; false when it already was. */
  private settle(): boolean {
    if (!this.open) return false;
    this.open = false;
    this.book.forget(this);
    return true;
  }
}

/** A request whose body is read at the end of the event-loop turn it arrived in. */
export class Arrival {
  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly params: Record<string, string>,
  ) {}
}

export const batchOf = (pending: PendingRequest): Batch => pending.batch;

/** 503 on shutdown, closing the connection so the server's close() does not wait for keep-alive. */
export function refuse(res: ServerResponse): void {
  if (!res.headersSent) res.setHeader('Connection', 'close');
  sendError(res, 503, 'Server closing');
}
