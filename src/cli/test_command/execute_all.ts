// Runs a processor list over batches the way the reference's unit tests do: each processor over
// every batch before the next processor, batches fanned out or dropped as processors decide.
import type { Processor } from '../../engine/component.js';
import { flagged } from '../../engine/processor_helpers.js';
import type { Batch } from '../../message/message.js';

export async function executeAll(processors: readonly Processor[], batches: Batch[]): Promise<Batch[]> {
  let current = batches;
  for (const processor of processors) {
    if (current.length === 0) break;
    const next: Batch[] = [];
    for (const batch of current) {
      try {
        next.push(...(await processor.process(batch)));
      } catch (err) {
        // A processor that throws fails every message of the batch, which carries on flagged.
        next.push(batch.map((msg) => flagged(msg, err)));
      }
    }
    current = next;
  }
  return current;
}
