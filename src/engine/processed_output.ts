// An output with its own `processors`, run just before writing. A group stays a group when the
// output underneath takes groups: every batch goes through the processors, and what they made
// is written with one call.
import type { Batch } from '../message/message.js';
import { failedBatches, partialGroupError, wholeFailure } from './batch_error.js';
import type { ConnectionStatus, Output, Processor } from './component.js';
import { runProcessors } from './observed_processor.js';

export class ProcessedOutput implements Output {
  /** Writes still in the processors, so flush() sees every batch they pass to the inner output. */
  private readonly processing = new Set<Promise<unknown>>();
  writeGroup?: (batches: readonly Batch[]) => Promise<void>;

  constructor(
    private readonly inner: Output,
    private readonly processors: Processor[],
  ) {
    // Without a group write underneath, a group would start one write per batch at once.
    if (inner.writeGroup) this.writeGroup = (batches) => this.writeProcessedGroup(batches);
  }

  async write(batch: Batch): Promise<void> {
    const batches = await this.track(runProcessors(this.processors, batch));
    if (batches.length === 1) return this.inner.write(batches[0]!);
    await Promise.all(batches.map((b) => this.inner.write(b)));
  }

  async flush(): Promise<void> {
    await Promise.allSettled([...this.processing]);
    await this.inner.flush?.();
  }

  statuses(): ConnectionStatus[] {
    return this.inner.statuses();
  }

  async close(): Promise<void> {
    await this.inner.close();
    for (const p of this.processors) await p.close();
  }

  private async writeProcessedGroup(batches: readonly Batch[]): Promise<void> {
    const origins: number[] = [];
    const made = await this.track(processEach(this.processors, batches, origins));
    if (made.length === 0) return;
    try {
      await this.inner.writeGroup!(made);
    } catch (err) {
      // What failed of `made`, as the group's own batches (a batch fails if anything it made did).
      const failedMade = failedBatches(err, made);
      if (failedMade === null) throw wholeFailure(err);
      const failed = [...new Set(failedMade.map((i) => origins[i]!))].sort((a, b) => a - b);
      throw partialGroupError(batches, failed, wholeFailure(err));
    }
  }

  private track(work: Batch[] | Promise<Batch[]>): Promise<Batch[]> {
    const processed = Promise.resolve(work);
    this.processing.add(processed);
    const untrack = () => this.processing.delete(processed);
    processed.then(untrack, untrack);
    return processed;
  }
}

/**
 * What the processors make of each batch, in order (`origins` gets, for each batch made, the index
 * of the batch it came from); a promise only if one answers asynchronously.
 */
function processEach(
  processors: readonly Processor[],
  batches: readonly Batch[],
  origins: number[],
): Batch[] | Promise<Batch[]> {
  const made: Batch[] = [];
  for (let i = 0; i < batches.length; i++) {
    const out = runProcessors(processors, batches[i]!);
    if (out instanceof Promise) return finishAsync(processors, batches, i, out, made, origins);
    for (const b of out) {
      made.push(b);
      origins.push(i);
    }
  }
  return made;
}

async function finishAsync(
  processors: readonly Processor[],
  batches: readonly Batch[],
  from: number,
  first: Promise<Batch[]>,
  made: Batch[],
  origins: number[],
): Promise<Batch[]> {
  for (const b of await first) {
    made.push(b);
    origins.push(from);
  }
  for (let i = from + 1; i < batches.length; i++) {
    for (const b of await runProcessors(processors, batches[i]!)) {
      made.push(b);
      origins.push(i);
    }
  }
  return made;
}
