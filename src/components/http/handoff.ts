// Hands batches from an output's write() to whichever client asks next (http_server output):
// a write resolves only once a client has been sent its batch; a batch whose client went away
// before it was written goes back to the front for the next client.
import type { Batch } from '../../message/message.js';

export interface Offer {
  readonly batch: Batch;
  /** The batch reached a client: the write resolves. */
  delivered(): void;
  /** The client failed before the batch was written: it waits for the next client. */
  giveBack(): void;
}

interface Pending {
  batch: Batch;
  resolve(): void;
  reject(err: Error): void;
}

export class BatchHandoff {
  private readonly pending: Pending[] = [];
  private readonly takers: Array<(p: Pending | null) => void> = [];
  private closedWith: Error | null = null;

  /** Resolves once a client received the batch; rejects when the handoff closes first. */
  offer(batch: Batch): Promise<void> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    return new Promise((resolve, reject) => this.push({ batch, resolve, reject }, false));
  }

  /** The next batch; null when `signal` fires (client gone, timeout) or the handoff closed. */
  take(signal: AbortSignal): Promise<Offer | null> {
    if (this.closedWith || signal.aborted) return Promise.resolve(null);
    const ready = this.pending.shift();
    if (ready) return Promise.resolve(this.offerOf(ready));
    return new Promise((resolve) => {
      const taker = (p: Pending | null) => {
        signal.removeEventListener('abort', onAbort);
        resolve(p ? this.offerOf(p) : null);
      };
      const onAbort = () => {
        const i = this.takers.indexOf(taker);
        if (i >= 0) this.takers.splice(i, 1);
        resolve(null);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.takers.push(taker);
    });
  }

  /** Fails every waiting write (so the engine nacks them) and wakes every waiting client. */
  close(err: Error): void {
    this.closedWith = err;
    for (const p of this.pending.splice(0)) p.reject(err);
    for (const t of this.takers.splice(0)) t(null);
  }

  private push(p: Pending, front: boolean): void {
    if (this.closedWith) {
      p.reject(this.closedWith);
      return;
    }
    const taker = this.takers.shift();
    if (taker) taker(p);
    else if (front) this.pending.unshift(p);
    else this.pending.push(p);
  }

  private offerOf(p: Pending): Offer {
    let settled = false;
    return {
      batch: p.batch,
      delivered: () => {
        if (settled) return;
        settled = true;
        p.resolve();
      },
      giveBack: () => {
        if (settled) return;
        settled = true;
        this.push(p, true);
      },
    };
  }
}
