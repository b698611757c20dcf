// An input with its own `processors`, run before the stream's pipeline. A group read from the
// input underneath stays a group: each batch goes through the processors on its own, and the
// group's ack settles a source batch once every batch made from it has settled.
import type { Batch } from '../message/message.js';
import type { ConnectionStatus, Input, Processor, Transaction, TransactionGroup } from './component.js';
import { asError } from './errors.js';
import type { ExhaustedListener } from './exhaustion.js';
import { runProcessors } from './observed_processor.js';
import { sharedAck } from './shared_ack.js';

export class ProcessedInput implements Input {
  private readonly queued: Transaction[] = [];
  readMany?: (max: number) => Promise<Transaction | TransactionGroup | null>;

  constructor(
    private readonly inner: Input,
    private readonly processors: Processor[],
  ) {
    if (inner.readMany) this.readMany = (max) => this.readGroup(max);
  }

  async read(): Promise<Transaction | null> {
    for (;;) {
      const next = this.queued.shift();
      if (next) return next;
      const txn = await this.inner.read();
      if (!txn) return null;
      const processed = await this.processOne(txn);
      if (processed) return processed;
    }
  }

  onExhausted(listener: ExhaustedListener): void {
    this.inner.onExhausted?.(listener);
  }

  statuses(): ConnectionStatus[] {
    return this.inner.statuses();
  }

  async close(): Promise<void> {
    await this.inner.close();
    for (const p of this.processors) await p.close();
  }

  private async readGroup(max: number): Promise<Transaction | TransactionGroup | null> {
    for (;;) {
      const next = this.queued.shift();
      if (next) return next;
      const got = await this.inner.readMany!(max);
      if (!got) return null;
      const processed = 'batches' in got ? await this.processGroup(got) : await this.processOne(got);
      if (processed) return processed;
    }
  }

  /** The first transaction made from `txn` (the others are queued); undefined when all was filtered. */
  private async processOne(txn: Transaction): Promise<Transaction | undefined> {
    const batches = await runProcessors(this.processors, txn.batch);
    if (batches.length === 0) {
      await txn.ack(null);
      return undefined;
    }
    if (batches.length === 1) return { batch: batches[0]!, ack: txn.ack };
    // One source transaction fanned out: acknowledge it once every part settled.
    const shared = sharedAck(txn, batches.length);
    for (const batch of batches) this.queued.push({ batch, ack: shared });
    return this.queued.shift();
  }

  /** The group of what the processors made; undefined when everything was filtered. */
  private async processGroup(group: TransactionGroup): Promise<TransactionGroup | undefined> {
    const made: Batch[] = [];
    const sourceOf = new Map<Batch, Batch>();
    /** Sources split into several batches: parts still unsettled and the first failure. */
    const splits = new Map<Batch, { remaining: number; failure: Error | null }>();
    const filtered: Batch[] = [];
    for (const source of group.batches) {
      let batches: Batch[];
      try {
        const made = runProcessors(this.processors, source);
        // No await for processors that answer at once: a microtask per batch adds up over a group.
        batches = made instanceof Promise ? await made : made;
      } catch (err) {
        group.ack(asError(err), [source]);
        continue;
      }
      if (batches.length === 0) {
        filtered.push(source);
        continue;
      }
      for (const b of batches) {
        sourceOf.set(b, source);
        made.push(b);
      }
      if (batches.length > 1) splits.set(source, { remaining: batches.length, failure: null });
    }
    if (filtered.length > 0) group.ack(null, filtered);
    if (made.length === 0) return undefined;
    const ack = (err: Error | null, settled: readonly Batch[]) => {
      const done: Batch[] = [];
      for (const b of settled) {
        const source = sourceOf.get(b);
        if (!source) continue;
        sourceOf.delete(b);
        const split = splits.get(source);
        if (split) {
          split.failure ??= err;
          if (--split.remaining > 0) continue;
          splits.delete(source);
          // A part failed earlier: the source is nacked, whatever this last part did.
          if (split.failure && !err) {
            group.ack(split.failure, [source]);
            continue;
          }
        }
        done.push(source);
      }
      if (done.length > 0) group.ack(err, done);
    };
    return { batches: made, ack };
  }
}
