// Handing a group of batches (read together from one input) to an output.
import type { Batch } from '../message/message.js';
import type { Output } from './component.js';

/** One call when the output takes groups, else every batch at once; settles when all did. */
export function writeGroupTo(output: Output, batches: readonly Batch[]): Promise<void> {
  if (output.writeGroup) return output.writeGroup(batches);
  if (batches.length === 1) return output.write(batches[0]!);
  return Promise.all(batches.map((b) => output.write(b))).then(noop);
}

function noop(): void {}
