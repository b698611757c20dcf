// Page compression for Parquet: what hyparquet-writer and hyparquet lack, from node's zlib,
// lz4js (raw blocks) and fzstd (zstd decoding). Node 20 has no zstd encoder and no pure-JS one is
// kept well, so zstd pages are written as valid zstd frames of stored (raw) blocks: every reader
// decodes them, but they are not smaller than the data.
import zlib from 'node:zlib';

export type Compress = (input: Uint8Array) => Uint8Array;
export type Decompress = (input: Uint8Array, outputLength: number) => Uint8Array;

/** The reference's `default_compression` names and Parquet's codec names. */
export const CODECS = {
  uncompressed: 'UNCOMPRESSED',
  snappy: 'SNAPPY',
  gzip: 'GZIP',
  brotli: 'BROTLI',
  zstd: 'ZSTD',
  lz4raw: 'LZ4_RAW',
} as const;

export type CodecName = keyof typeof CODECS;

const ZSTD_MAGIC = 0xfd2fb528;
const ZSTD_BLOCK_MAX = 128 * 1024;

/** A zstd frame holding `input` in raw blocks, with its content size and no checksum. */
export function zstdStored(input: Uint8Array): Uint8Array {
  const blocks = Math.max(1, Math.ceil(input.length / ZSTD_BLOCK_MAX));
  const out = Buffer.alloc(4 + 1 + 8 + blocks * 3 + input.length);
  let at = out.writeUInt32LE(ZSTD_MAGIC, 0);
  // Frame header descriptor: 8-byte content size (FCS flag 3), single segment (no window size).
  out[at++] = (3 << 6) | (1 << 5);
  out.writeBigUInt64LE(BigInt(input.length), at);
  at += 8;
  for (let i = 0; i < blocks; i++) {
    const start = i * ZSTD_BLOCK_MAX;
    const size = Math.min(ZSTD_BLOCK_MAX, input.length - start);
    const last = i === blocks - 1 ? 1 : 0;
    // Block header: last flag, type 0 (raw), size.
    out.writeUIntLE((size << 3) | last, at, 3);
    at += 3;
    out.set(input.subarray(start, start + size), at);
    at += size;
  }
  return out.subarray(0, at);
}

async function lz4(): Promise<typeof import('lz4js')> {
  return import('lz4js');
}

/** Compressors for hyparquet-writer, keyed by Parquet codec name. */
export async function compressors(): Promise<Record<string, Compress>> {
  const lz = await lz4();
  return {
    GZIP: (input) => zlib.gzipSync(input),
    BROTLI: (input) => zlib.brotliCompressSync(input),
    ZSTD: zstdStored,
    LZ4_RAW: (input) => {
      const out = new Uint8Array(lz.compressBound(input.length));
      const size = lz.compressBlock(input, out, 0, input.length, new Uint32Array(1 << 16));
      // lz4js answers 0 when it found no match; a block of one literal run holds the input as is.
      return size > 0 ? out.subarray(0, size) : literalBlock(input);
    },
  };
}

/** An LZ4 block that is one run of literals (valid for any input). */
export function literalBlock(input: Uint8Array): Uint8Array {
  const n = input.length;
  const head: number[] = [];
  if (n < 15) head.push(n << 4);
  else {
    head.push(0xf0);
    let rest = n - 15;
    while (rest >= 255) {
      head.push(255);
      rest -= 255;
    }
    head.push(rest);
  }
  const out = new Uint8Array(head.length + n);
  out.set(head, 0);
  out.set(input, head.length);
  return out;
}

/** Decompressors for hyparquet (it decodes SNAPPY itself), keyed by Parquet codec name. */
export async function decompressors(): Promise<Record<string, Decompress>> {
  const lz = await lz4();
  const fzstd = await import('fzstd');
  return {
    GZIP: (input) => zlib.gunzipSync(input),
    BROTLI: (input) => zlib.brotliDecompressSync(input),
    ZSTD: (input, length) => fzstd.decompress(input, new Uint8Array(length)),
    LZ4_RAW: (input, length) => {
      const out = new Uint8Array(length);
      const end = lz.decompressBlock(input, out, 0, input.length, 0);
      if (end !== length) throw new Error(`lz4 block decoded to ${end} bytes, expected ${length}`);
      return out;
    },
  };
}
