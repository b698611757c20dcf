// The most bytes one decompression may produce. The reference has no limit; a few kilobytes of
// bzip2 or gzip can then claim gigabytes and minutes of CPU. 256 MiB is far above any message a
// stream normally carries, and NEKTON_MAX_DECOMPRESSED_BYTES changes it for the whole process.

export const DEFAULT_DECOMPRESSED_LIMIT = 256 * 1024 * 1024;

/** The limit in force: the environment's override when it is a positive integer, else the default. */
export function decompressedLimit(env: Record<string, string | undefined> = process.env): number {
  const raw = env.NEKTON_MAX_DECOMPRESSED_BYTES;
  if (raw === undefined || raw === '') return DEFAULT_DECOMPRESSED_LIMIT;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n <= 0) {
    throw new Error(`NEKTON_MAX_DECOMPRESSED_BYTES: ${JSON.stringify(raw)} is not a positive whole number`);
  }
  return n;
}

export class DecompressedTooLargeError extends Error {
  constructor(limit: number) {
    super(`decompressed data exceeds the limit of ${limit} bytes`);
  }
}

/** Corrupt or truncated compressed input: an error, never a guess at the content. */
export class CorruptInputError extends Error {}

/** Counts produced bytes against the limit; throws as soon as one more byte would pass it. */
export class OutputBudget {
  private used = 0;

  constructor(readonly limit: number) {}

  take(bytes: number): void {
    this.used += bytes;
    if (this.used > this.limit) throw new DecompressedTooLargeError(this.limit);
  }

  /** Whether `bytes` more would still fit (to refuse a declared size before allocating it). */
  fits(bytes: number): boolean {
    return this.used + bytes <= this.limit;
  }
}
