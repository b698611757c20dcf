// Whole-buffer decompression in one synchronous call, within the limit: for Bloblang, whose
// methods are synchronous (the limit bounds how long one call can run).
import * as zlib from 'node:zlib';
import { ByteQueue } from './byte_queue.js';
import { bzip2Decoder } from './bzip2.js';
import { decodeWholeSync } from './drive_sync.js';
import { DecompressedTooLargeError, decompressedLimit, OutputBudget } from './limit.js';
import { lz4Decoder } from './lz4.js';
import { snappyDecode } from './snappy.js';

/** Node's "buffer too large" as the limit it is; other zlib errors as they are. */
export function zlibError(err: Error, limit: number): Error {
  if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
    return new DecompressedTooLargeError(limit);
  return err;
}

/** Decompresses in one synchronous call, within `limit`: for Bloblang, whose methods are synchronous. */
export function decompressSync(algorithm: string, data: Uint8Array, limit = decompressedLimit()): Uint8Array {
  const options = { maxOutputLength: limit };
  try {
    switch (algorithm) {
      case 'gzip':
      case 'pgzip':
        return zlib.gunzipSync(data, options);
      case 'zlib':
        return zlib.inflateSync(data, options);
      case 'flate':
        return zlib.inflateRawSync(data, options);
      case 'lz4':
        return decodeWholeSync(lz4Decoder(ByteQueue.of(data), new OutputBudget(limit)));
      case 'snappy':
        return snappyDecode(data, new OutputBudget(limit));
      case 'bzip2':
        return decodeWholeSync(bzip2Decoder(ByteQueue.of(data), new OutputBudget(limit)));
      default:
        throw new Error(`unrecognised decompression algorithm: ${algorithm}`);
    }
  } catch (err) {
    throw err instanceof Error ? zlibError(err, limit) : err;
  }
}
