// How many transactions a stream lets wait for its output at once: enough to bound memory, and
// enough for the output's batching policies to fill their batches. A policy of `count: 10000`
// needs at least that many messages waiting (twice that many keeps one batch filling while the
// last is written); below that, the stream writes partial batches when it stalls (stream.ts).

/** The least: what any stream admits (a batch in flight per output slot, groups read ahead). */
export const MIN_ADMITTED = 4096;
/**
 * The bytes of input messages a stream lets wait for its output at once, beside the count: 4,096
 * messages of 2 MB held 8 GB (a file of large lines into a slow output grew with the file). A
 * message larger than this goes alone. Batching policies that need more wait for the stall flush.
 */
export const ADMITTED_BYTES = 128 * 1024 * 1024;
/** The most: a policy's count beyond it fills its batches from the stall flush instead. */
export const MAX_ADMITTED = 262_144;

/** The admission limit for a stream whose output is configured as `outputConfig`. */
export function admittedTransactions(outputConfig: unknown): number {
  return Math.min(MAX_ADMITTED, Math.max(MIN_ADMITTED, 2 * largestBatchCount(outputConfig)));
}

/** The largest `batching.count` anywhere in an output's settings (brokers, their members, ...). */
function largestBatchCount(value: unknown, depth = 0): number {
  if (value === null || typeof value !== 'object' || depth > 32) return 0;
  if (Array.isArray(value)) return Math.max(0, ...value.map((v) => largestBatchCount(v, depth + 1)));
  let largest = 0;
  for (const [key, v] of Object.entries(value)) {
    if (key === 'batching' && v !== null && typeof v === 'object') {
      const count = (v as { count?: unknown }).count;
      if (typeof count === 'number' && Number.isFinite(count)) largest = Math.max(largest, count);
    }
    largest = Math.max(largest, largestBatchCount(v, depth + 1));
  }
  return largest;
}
