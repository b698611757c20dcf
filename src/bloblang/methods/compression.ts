// compress/decompress with node:zlib (gzip, pgzip, zlib, flate) and a small snappy block codec.
// lz4, zstd and bzip2 have no dependency-free implementation here and report as unsupported.
import { constants, deflateRawSync, deflateSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { snappyDecode, snappyEncode } from './compression_snappy.js';
import { crc32 } from './hashing.js';
import { argInt, argString, fail, method, p, targetBytes } from './support.js';

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
  snappy: (d) => snappyEncode(d),
};

function wrapZlibError(algorithm: string, fn: () => Buffer): Uint8Array {
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

const DECOMPRESSORS: Record<string, (data: Uint8Array) => Uint8Array> = {
  gzip: (d) => wrapZlibError('gzip', () => gunzipSync(d)),
  pgzip: (d) => wrapZlibError('gzip', () => gunzipSync(d)),
  zlib: (d) => wrapZlibError('zlib', () => inflateSync(d)),
  flate: (d) => wrapZlibError('flate', () => inflateRawSync(d)),
  snappy: snappyDecode,
};

const UNSUPPORTED = new Set(['lz4', 'zstd', 'bzip2']);

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
