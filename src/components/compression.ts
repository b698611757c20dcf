// Whole-payload compression codecs by their Benthos names, shared by `compress`, `decompress`
// and the `decompress` scanner. Framing follows the reference: lz4 is the LZ4 *frame* format
// (pierrec/lz4 NewWriter/NewReader), snappy the raw *block* format (snappy.Encode/Decode), and
// bzip2 a standard .bz2 stream that is only ever decoded.
// The codec packages are imported when a stream uses them, so they cost nothing at start-up.
import * as zlib from 'node:zlib';
import { ByteQueue } from '../base/decompression/byte_queue.js';
import { bzip2Decoder } from '../base/decompression/bzip2.js';
import { decompressedLimit, OutputBudget } from '../base/decompression/limit.js';
import { lz4Decoder } from '../base/decompression/lz4.js';
import { snappyDecode } from '../base/decompression/snappy.js';
import { zlibError } from '../base/decompression/whole_sync.js';
import { ConfigError } from '../engine/errors.js';
import { decodeWhole } from './decompression/drive.js';

export type Compressor = (data: Uint8Array) => Uint8Array;
export type Decompressor = (data: Uint8Array) => Promise<Uint8Array>;

/** The reference's option lists, in its order; also what the linter accepts. */
export const COMPRESS_ALGORITHMS = ['flate', 'gzip', 'lz4', 'pgzip', 'snappy', 'zlib'] as const;
export const DECOMPRESS_ALGORITHMS = ['bzip2', 'flate', 'gzip', 'lz4', 'pgzip', 'snappy', 'zlib'] as const;

/** Go's compression levels: -2 Huffman only, -1 default, 0 none, 1 fastest .. 9 smallest. */
function zlibOptions(level: number): zlib.ZlibOptions {
  if (level === -2)
    return { level: zlib.constants.Z_DEFAULT_COMPRESSION, strategy: zlib.constants.Z_HUFFMAN_ONLY };
  return { level };
}

function checkLevel(level: number): void {
  if (!Number.isInteger(level) || level < -2 || level > 9) {
    throw new ConfigError(`level: invalid compression level ${level}, expected -2 to 9`);
  }
}

/**
 * Throws a ConfigError for an unknown algorithm or a bad level, so a config fails at build time;
 * its message starts with the field at fault (`algorithm: ...`) for the caller to put a path on.
 */
export async function compressor(algorithm: string, level: number): Promise<Compressor> {
  const name = algorithm.toLowerCase();
  checkLevel(level);
  const options = zlibOptions(level);
  switch (name) {
    case 'gzip':
    case 'pgzip': // parallel gzip in Go; the output format is plain gzip
      return (data) => zlib.gzipSync(data, options);
    case 'zlib':
      return (data) => zlib.deflateSync(data, options);
    case 'flate':
      return (data) => zlib.deflateRawSync(data, options);
    case 'lz4': {
      const lz4 = await import('lz4js');
      // lz4js has one (fast) encoder; the reference's levels 1-9 pick its HC encoder, whose
      // output any LZ4 frame reader decodes the same, so the level only changes the size.
      return (data) => lz4.compress(data);
    }
    case 'snappy': {
      const snappy = await import('snappyjs');
      return (data) => snappy.compress(data); // the block format has no levels, in the reference too
    }
    default:
      throw new ConfigError(
        `algorithm: compression algorithm ${algorithm} is not recognised, expected one of ${COMPRESS_ALGORITHMS.join(', ')}`,
      );
  }
}

/**
 * A decompressor for whole messages: corrupt or truncated input is an error, output past `limit`
 * bytes is an error, and the work is done in slices (zlib on libuv's thread pool) so one message
 * cannot hold the event loop. Once `stop` fires, bzip2 and lz4 give up at their next slice.
 */
export async function decompressor(
  algorithm: string,
  limit = decompressedLimit(),
  stop?: AbortSignal,
): Promise<Decompressor> {
  const name = algorithm.toLowerCase();
  switch (name) {
    case 'gzip':
    case 'pgzip':
      return (data) => inflateZlib(zlib.gunzip, data, limit);
    case 'zlib':
      return (data) => inflateZlib(zlib.inflate, data, limit);
    case 'flate':
      return (data) => inflateZlib(zlib.inflateRaw, data, limit);
    case 'lz4':
      return (data) => decodeWhole(lz4Decoder(ByteQueue.of(data), new OutputBudget(limit)), stop);
    case 'snappy':
      return async (data) => snappyDecode(data, new OutputBudget(limit));
    case 'bzip2':
      return (data) => decodeWhole(bzip2Decoder(ByteQueue.of(data), new OutputBudget(limit)), stop);
    default:
      throw new ConfigError(
        `algorithm: decompression algorithm ${algorithm} is not recognised, expected one of ${DECOMPRESS_ALGORITHMS.join(', ')}`,
      );
  }
}

type ZlibOneShot = (data: zlib.InputType, options: zlib.ZlibOptions, done: zlib.CompressCallback) => void;

function inflateZlib(run: ZlibOneShot, data: Uint8Array, limit: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    run(data, { maxOutputLength: limit, chunkSize: 64 * 1024 }, (err, out) => {
      if (err) reject(zlibError(err, limit));
      else resolve(out);
    });
  });
}
