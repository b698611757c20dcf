// compress/decompress: gzip, pgzip, zlib and flate with node:zlib (byte-identical to the
// reference's output), lz4 (frame), snappy (block) and bzip2 (decode only) with the same pure-JS
// packages as the compress/decompress processors, loaded on first use. zstd is not supported.
import { createRequire } from 'node:module';
import { constants, deflateRawSync, deflateSync } from 'node:zlib';
import { decompressedLimit } from '../../base/decompression/limit.js';
import { decompressSync } from '../../base/decompression/whole_sync.js';
import { MAX_MAPPING_DECOMPRESSED_BYTES } from '../limits.js';
import { crc32 } from './hashing.js';
import { argInt, argString, fail, method, p, targetBytes } from './support.js';

const require = createRequire(import.meta.url);
const snappy = () => require('snappyjs') as typeof import('snappyjs');
const lz4 = () => require('lz4js') as typeof import('lz4js');

/** A codec's failure on bad input as a mapping error naming the algorithm. */
function decoding(algorithm: string, fn: () => Uint8Array): Uint8Array {
  try {
    return fn();
  } catch (e) {
    const message = (e as Error).message;
    throw fail(message.startsWith(`${algorithm}: `) ? message : `${algorithm}: ${message}`);
  }
}

/**
 * The reference's deflate (klauspost/compress) stores inputs under 128 bytes uncompressed; doing
 * the same keeps small outputs byte-identical and is still valid deflate.
 */
function deflateRaw(data: Uint8Array, level: number): Uint8Array {
  if (data.length < 128 && level !== 0) {
    const out = new Uint8Array(data.length + (data.length > 0 ? 5 : 0) + 2);
    let o = 0;
    if (data.length > 0) {
      out[o++] = 0x00;
      out[o++] = data.length & 0xff;
      out[o++] = data.length >> 8;
      out[o++] = ~data.length & 0xff;
      out[o++] = (~data.length >> 8) & 0xff;
      out.set(data, o);
      o += data.length;
    }
    // An empty final block with fixed Huffman codes.
    out[o++] = 0x03;
    out[o++] = 0x00;
    return out;
  }
  return new Uint8Array(deflateRawSync(data, { level: level < 0 ? constants.Z_DEFAULT_COMPRESSION : level }));
}

function gzip(data: Uint8Array, level: number): Uint8Array {
  const body = deflateRaw(data, level);
  // Go's writer puts the zero time's truncated Unix seconds in MTIME and 255 (unknown) as OS.
  const header = Uint8Array.of(
    0x1f,
    0x8b,
    0x08,
    0x00,
    0x00,
    0x09,
    0x6e,
    0x88,
    level === 9 ? 2 : level === 1 ? 4 : 0,
    0xff,
  );
  const trailer = new Uint8Array(8);
  const view = new DataView(trailer.buffer);
  view.setUint32(0, crc32(data), true);
  view.setUint32(4, data.length >>> 0, true);
  const out = new Uint8Array(header.length + body.length + 8);
  out.set(header, 0);
  out.set(body, header.length);
  out.set(trailer, header.length + body.length);
  return out;
}

function checkLevel(level: number): number {
  if (level < -2 || level > 9) throw fail(`invalid compression level ${level}`);
  return level === -2 ? 1 : level;
}

const COMPRESSORS: Record<string, (data: Uint8Array, level: number) => Uint8Array> = {
  gzip,
  pgzip: gzip,
  zlib: (d, l) => new Uint8Array(deflateSync(d, { level: l < 0 ? constants.Z_DEFAULT_COMPRESSION : l })),
  flate: deflateRaw,
  lz4: (d) => lz4().compress(d),
  snappy: (d) => snappy().compress(d),
};

function wrapZlibError(algorithm: string, fn: () => Uint8Array): Uint8Array {
  try {
    return new Uint8Array(fn());
  } catch (e) {
    const msg = (e as Error).message;
    if (algorithm === 'gzip' && /header/.test(msg)) throw fail('gzip: invalid header');
    if (algorithm === 'zlib' && /header/.test(msg)) throw fail('zlib: invalid header');
    if (/unexpected end/i.test(msg)) throw fail('unexpected EOF');
    throw fail(`${algorithm}: ${msg}`);
  }
}

// Routed through the shared bounded codecs: corrupt or truncated input fails, and no output may
// pass the mapping's decompression limit (a method is synchronous: the limit bounds its time).
const mappingLimit = (): number => Math.min(decompressedLimit(), MAX_MAPPING_DECOMPRESSED_BYTES);
const DECOMPRESSORS: Record<string, (data: Uint8Array) => Uint8Array> = {
  gzip: (d) => wrapZlibError('gzip', () => decompressSync('gzip', d, mappingLimit())),
  pgzip: (d) => wrapZlibError('gzip', () => decompressSync('gzip', d, mappingLimit())),
  zlib: (d) => wrapZlibError('zlib', () => decompressSync('zlib', d, mappingLimit())),
  flate: (d) => wrapZlibError('flate', () => decompressSync('flate', d, mappingLimit())),
  lz4: (d) => decoding('lz4', () => decompressSync('lz4', d, mappingLimit())),
  snappy: (d) => decoding('snappy', () => decompressSync('snappy', d, mappingLimit())),
  bzip2: (d) => decoding('bzip2', () => decompressSync('bzip2', d, mappingLimit())),
};

const UNSUPPORTED = new Set(['zstd', 'bzip2']);

method('compress', [p.str('algorithm'), p.int('level', { default: -1 })], (t, a) => {
  const algorithm = argString(a, 0);
  const fn = COMPRESSORS[algorithm];
  if (!fn) {
    if (UNSUPPORTED.has(algorithm))
      throw fail(`compression algorithm ${algorithm} is not supported by nekton`);
    throw fail(`unrecognised compression algorithm: ${algorithm}`);
  }
  return fn(targetBytes(t), checkLevel(a[1] === undefined ? -1 : argInt(a, 1, 'level')));
});

method('decompress', [p.str('algorithm')], (t, a) => {
  const algorithm = argString(a, 0);
  const fn = DECOMPRESSORS[algorithm];
  if (!fn) {
    if (UNSUPPORTED.has(algorithm))
      throw fail(`decompression algorithm ${algorithm} is not supported by nekton`);
    throw fail(`unrecognised decompression algorithm: ${algorithm}`);
  }
  return fn(targetBytes(t));
});
