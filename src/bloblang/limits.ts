// Bounds on what a mapping may allocate from the data it reads: past them the message fails with
// an error instead of the process running out of heap (`range(0, this.n)` with n = 3e8 would ask
// for 2.4 GB). The reference has no such bounds; the README's "Values and limits" lists them.
import { BloblangError } from './library.js';

/** The most elements `range` makes (10 million: about 80 MB of numbers). */
export const MAX_RANGE_LENGTH = 10_000_000;

/** The longest string or bytes value `repeat`, `bytes`, `nanoid`, `format` widths and `format_json` make (64 MiB). */
export const MAX_GENERATED_LENGTH = 64 * 1024 * 1024;

/**
 * The most bytes `decompress()` in a mapping may produce (32 MiB, under the process's decompression
 * limit): a method is synchronous, so this bounds how long one message holds the event loop
 * (a 4 KB bzip2 bomb took 1.5–7 s to reach 256 MiB). The `decompress` processor yields as it goes
 * and keeps the full limit.
 */
export const MAX_MAPPING_DECOMPRESSED_BYTES = 32 * 1024 * 1024;

/** Throws when `size` (a count of `unit` about to be allocated) exceeds `limit`. */
export function checkSize(what: string, size: number, limit: number, unit = 'characters'): void {
  if (size > limit)
    throw new BloblangError(`${what} would make ${size} ${unit}, more than the limit of ${limit}`);
}
