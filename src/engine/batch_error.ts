// A write where only some parts failed (the reference's BatchError): the parts not listed were
// delivered and must not be written again. Each error is bound to the very array that was written,
// so a layer that hands on a different array (a copy, what processors made) can never misread the
// indices: for any other array the error means "everything failed", the safe reading.
import type { Batch } from '../message/message.js';

/** Some messages of `batch` failed (`failed`: their indices, ascending); the others were delivered. */
export class BatchError extends Error {
  constructor(
    readonly batch: Batch,
    readonly failed: readonly number[],
    readonly reason: Error,
  ) {
    super(`${failed.length} of ${batch.length} messages failed: ${reason.message}`, { cause: reason });
    this.name = 'BatchError';
  }
}

/** Some batches of a group write failed (`failed`: their indices, ascending); the others were delivered. */
export class GroupWriteError extends Error {
  constructor(
    readonly group: readonly Batch[],
    readonly failed: readonly number[],
    readonly reason: Error,
  ) {
    super(`${failed.length} of ${group.length} batches failed: ${reason.message}`, { cause: reason });
    this.name = 'GroupWriteError';
  }
}

/** The indices of `batch` that `err` says failed; null when they all did (or nothing says otherwise). */
export function failedMessages(err: unknown, batch: Batch): readonly number[] | null {
  return err instanceof BatchError && err.batch === batch ? err.failed : null;
}

/** The indices of the batches of `group` that `err` says failed; null when they all did. */
export function failedBatches(err: unknown, group: readonly Batch[]): readonly number[] | null {
  return err instanceof GroupWriteError && err.group === group ? err.failed : null;
}

/** The error that reports `failed` of `size` parts: the plain reason when none was delivered. */
export function partialError(batch: Batch, failed: number[], reason: Error): Error {
  return failed.length >= batch.length ? reason : new BatchError(batch, failed, reason);
}

export function partialGroupError(group: readonly Batch[], failed: number[], reason: Error): Error {
  return failed.length >= group.length ? reason : new GroupWriteError(group, failed, reason);
}

/** The underlying error of a partial failure, for a layer that reports the whole batch as failed. */
export function wholeFailure(err: unknown): Error {
  if (err instanceof BatchError || err instanceof GroupWriteError) return err.reason;
  return err instanceof Error ? err : new Error(String(err));
}
