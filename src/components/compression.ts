// Whole-payload compression codecs by their Benthos names, shared by `compress`, `decompress`
// and anything else that names an algorithm. Only what node:zlib does natively is supported;
// the rest are named so configs lint, and fail clearly when built.
import * as zlib from 'node:zlib';

export type Compressor = (data: Uint8Array) => Uint8Array;
export type Decompressor = (data: Uint8Array) => Uint8Array;

/** Algorithms the reference knows but nekton has no well-kept pure-JS codec for. */
const UNSUPPORTED = new Set(['lz4', 'snappy', 'bzip2']);

/** Go's compression levels: -2 Huffman only, -1 default, 0 none, 1 fastest .. 9 smallest. */
function zlibOptions(level: number): zlib.ZlibOptions {
  if (!Number.isInteger(level) || level < -2 || level > 9) {
    throw new Error(`invalid compression level ${level}: expected -2 to 9`);
  }
  if (level === -2)
    return { level: zlib.constants.Z_DEFAULT_COMPRESSION, strategy: zlib.constants.Z_HUFFMAN_ONLY };
  return { level };
}

function unsupported(algorithm: string): Error {
  return new Error(
    `compression algorithm ${algorithm} is not supported by nekton (supported: gzip, pgzip, zlib, flate)`,
  );
}

/** Throws when the algorithm is unknown or not supported, so a config fails at build time. */
export function compressor(algorithm: string, level: number): Compressor {
  const name = algorithm.toLowerCase();
  if (UNSUPPORTED.has(name)) throw unsupported(name);
  const options = zlibOptions(level);
  switch (name) {
    case 'gzip':
    case 'pgzip': // parallel gzip in Go; the output format is plain gzip
      return (data) => zlib.gzipSync(data, options);
    case 'zlib':
      return (data) => zlib.deflateSync(data, options);
    case 'flate':
      return (data) => zlib.deflateRawSync(data, options);
    default:
      throw new Error(`compression algorithm not recognised: ${algorithm}`);
  }
}

export function decompressor(algorithm: string): Decompressor {
  const name = algorithm.toLowerCase();
  if (UNSUPPORTED.has(name)) throw unsupported(name);
  switch (name) {
    case 'gzip':
    case 'pgzip':
      return (data) => zlib.gunzipSync(data);
    case 'zlib':
      return (data) => zlib.inflateSync(data);
    case 'flate':
      return (data) => zlib.inflateRawSync(data);
    default:
      throw new Error(`decompression algorithm not recognised: ${algorithm}`);
  }
}
