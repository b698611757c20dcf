// Handing a group of batches (read together from one input) to an output.
import type { Batch } from '../message/message.js';
import { partialGroupError, wholeFailure } from './batch_error.js';
import type { Output } from './component.js';

/**
 * One call when the output takes groups, else every batch at once; settles when all did. Batch by
 * batch, a failure waits for the other writes and names the batches that failed (a
 * GroupWriteError), so the ones delivered are not written again.
 */
export function writeGroupTo(output: Output, batches: readonly Batch[]): Promise<void> {
  if (output.writeGroup) return output.writeGroup(batches);
  if (batches.length === 1) return output.write(batches[0]!);
  return new Promise<void>((resolve, reject) => {
    let left = batches.length;
    let reason: Error | null = null;
    const failed: number[] = [];
    const settled = () => {
      if (--left > 0) return;
      if (!reason) resolve();
      else
        reject(
          partialGroupError(
            batches,
            failed.sort((a, b) => a - b),
            reason,
          ),
        );
    };
    for (let i = 0; i < batches.length; i++) {
      output.write(batches[i]!).then(settled, (err: unknown) => {
        failed.push(i);
        reason ??= wholeFailure(err);
        settled();
      });
    }
  });
}
