// In-process pipes: an `inproc` output sends into a named pipe that an `inproc` input reads.
// One bus per process, shared by all its streams.
import type { Transaction } from './component.js';

export interface InprocBus {
  /** Hands a transaction to the reader of `name`; waits while no reader is attached or it is busy. */
  send(name: string, txn: Transaction, signal?: AbortSignal): Promise<void>;
  /** Attaches as the reader of `name`; returns the next transaction, or null once detached. */
  receive(name: string, signal?: AbortSignal): Promise<Transaction | null>;
  /** Whether a reader is currently attached to `name` (an inproc output is "connected" then). */
  hasReader(name: string): boolean;
}

interface PendingSend {
  txn: Transaction;
  resolve(): void;
}

interface PendingReceive {
  resolve(txn: Transaction | null): void;
}

class Pipe {
  readonly senders: PendingSend[] = [];
  readonly receivers: PendingReceive[] = [];
  /** Readers that attached with a signal stay attached between receives until it aborts. */
  readonly readerSignals = new Set<AbortSignal>();
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('inproc send aborted');
}

/**
 * An unbuffered rendezvous per name: `send` resolves only once a reader has taken the
 * transaction, so a slow reader slows the writers (backpressure) and nothing queues unbounded.
 */
export class MemoryInprocBus implements InprocBus {
  private readonly pipes = new Map<string, Pipe>();

  send(name: string, txn: Transaction, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortError(signal));
    const pipe = this.pipe(name);
    const receiver = pipe.receivers.shift();
    if (receiver) {
      receiver.resolve(txn);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const pending: PendingSend = {
        txn,
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        const i = pipe.senders.indexOf(pending);
        if (i >= 0) pipe.senders.splice(i, 1);
        reject(abortError(signal as AbortSignal));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      pipe.senders.push(pending);
    });
  }

  receive(name: string, signal?: AbortSignal): Promise<Transaction | null> {
    if (signal?.aborted) return Promise.resolve(null);
    const pipe = this.pipe(name);
    if (signal && !pipe.readerSignals.has(signal)) {
      pipe.readerSignals.add(signal);
      signal.addEventListener('abort', () => pipe.readerSignals.delete(signal), { once: true });
    }
    const sender = pipe.senders.shift();
    if (sender) {
      sender.resolve();
      return Promise.resolve(sender.txn);
    }
    return new Promise<Transaction | null>((resolve) => {
      const pending: PendingReceive = {
        resolve: (txn) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(txn);
        },
      };
      const onAbort = () => {
        const i = pipe.receivers.indexOf(pending);
        if (i >= 0) pipe.receivers.splice(i, 1);
        resolve(null);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      pipe.receivers.push(pending);
    });
  }

  hasReader(name: string): boolean {
    const pipe = this.pipes.get(name);
    return pipe !== undefined && (pipe.readerSignals.size > 0 || pipe.receivers.length > 0);
  }

  private pipe(name: string): Pipe {
    let pipe = this.pipes.get(name);
    if (!pipe) {
      pipe = new Pipe();
      this.pipes.set(name, pipe);
    }
    return pipe;
  }
}
