// A broker-level `batching` policy in front of a composite output: messages are grouped before
// the broker dispatches them, and each writer learns when its messages were delivered.
import { Batcher, type BatchPolicy } from '../../engine/batching.js';
import type { ConnectionStatus, Output } from '../../engine/component.js';
import { timerDelay } from '../../engine/timer_delay.js';
import type { Batch } from '../../message/message.js';

export class BatchedOutput implements Output {
  private readonly batcher: Batcher;

  constructor(
    private readonly inner: Output,
    private readonly policy: BatchPolicy,
  ) {
    this.batcher = new Batcher(policy, (batch) => inner.write(batch));
  }

  write(batch: Batch): Promise<void> {
    return this.batcher.add(batch);
  }

  /**
   * Hands the partial batch to the composite, then flushes the composite's members until it was
   * delivered: a member with its own batching may hold part of it, and a member that is retrying
   * takes it only later, so one member flush before waiting is not enough.
   */
  async flush(): Promise<void> {
    const delivered = this.batcher.hasPending() ? this.batcher.flush() : null;
    if (!delivered) return this.inner.flush?.();
    let settled = false;
    const done = delivered.then(
      () => (settled = true),
      () => (settled = true),
    );
    await this.batcher.handedOver();
    while (!settled) {
      await this.inner.flush?.();
      if (!settled) await withinMs(done, MEMBER_FLUSH_INTERVAL_MS);
    }
    await delivered;
  }

  statuses(): ConnectionStatus[] {
    return this.inner.statuses();
  }

  async close(): Promise<void> {
    if (this.batcher.hasPending()) await this.flush().catch(noop);
    await this.inner.close();
    for (const p of this.policy.processors) await p.close();
  }
}

/** How often a flush waiting for its batch flushes the members again. */
const MEMBER_FLUSH_INTERVAL_MS = 50;

function noop(): void {}

/** Waits for `work`, or `ms` at most. */
function withinMs(work: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, timerDelay(ms));
    work.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
