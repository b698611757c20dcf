// A broker-level `batching` policy in front of a composite output: messages are grouped before
// the broker dispatches them, and each writer learns when its messages were delivered.
import { Batcher, type BatchPolicy } from '../../engine/batching.js';
import type { ConnectionStatus, Output } from '../../engine/component.js';
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

  async flush(): Promise<void> {
    if (this.batcher.hasPending()) await this.batcher.flush();
    await this.inner.flush?.();
  }

  statuses(): ConnectionStatus[] {
    return this.inner.statuses();
  }

  async close(): Promise<void> {
    if (this.batcher.hasPending()) await this.batcher.flush().catch(() => undefined);
    await this.inner.close();
    for (const p of this.policy.processors) await p.close();
  }
}
