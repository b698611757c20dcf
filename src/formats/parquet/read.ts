// Reading Parquet files into rows of nekton values (hyparquet, pure JS), shared by
// `parquet_decode`, the `parquet` input and the `parse_parquet` Bloblang method. Values come out as
// the reference gives them: timestamps as timestamps (nanosecond precision), UUIDs as strings,
// UTF8 columns as strings, other byte arrays as bytes, 64-bit integers as numbers when they fit.
import { Timestamp } from '../../message/value.js';
import { type Decompress, decompressors } from './codecs.js';

type Hyparquet = typeof import('hyparquet');
let hyparquet: Hyparquet | undefined;
let codecs: Record<string, Decompress> | undefined;

export async function loadParquetReader(): Promise<void> {
  hyparquet ??= await import('hyparquet');
  codecs ??= await decompressors();
}

const decoder = new TextDecoder();

export const parquetParsers = {
  timestampFromMilliseconds: (v: bigint) => new Timestamp(BigInt(v) * 1_000_000n),
  timestampFromMicroseconds: (v: bigint) => new Timestamp(BigInt(v) * 1_000n),
  timestampFromNanoseconds: (v: bigint) => new Timestamp(BigInt(v)),
  // The reference leaves DATE as its physical int32 (days since the epoch).
  dateFromDays: (v: number) => v,
  stringFromBytes: (b: Uint8Array | undefined) => (b === undefined ? b : decoder.decode(b)),
  jsonFromBytes: (b: Uint8Array | undefined) => (b === undefined ? b : JSON.parse(decoder.decode(b))),
  geometryFromBytes: (b: Uint8Array | undefined) => b,
  geographyFromBytes: (b: Uint8Array | undefined) => b,
  uuidFromBytes: (b: Uint8Array | undefined) => {
    if (!b) return b;
    const hex = Buffer.from(b).toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  },
};

/** hyparquet's values as nekton values: safe bigints as numbers, undefined as null. */
export function normaliseParquetValue(v: unknown): unknown {
  if (v === undefined || v === null) return null;
  if (typeof v === 'bigint')
    return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
  if (v instanceof Date) return new Timestamp(BigInt(v.getTime()) * 1_000_000n);
  if (v instanceof Uint8Array || v instanceof Timestamp) return v;
  if (Array.isArray(v)) return v.map(normaliseParquetValue);
  if (ArrayBuffer.isView(v)) return Array.from(v as unknown as ArrayLike<unknown>, normaliseParquetValue);
  if (typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = normaliseParquetValue(x);
    return out;
  }
  return v;
}

/** Every row of a Parquet file, in order. Must follow `loadParquetReader()`. */
export async function readParquetRows(bytes: Uint8Array): Promise<Record<string, unknown>[]> {
  if (!hyparquet || !codecs) throw new Error('parquet reader is not loaded');
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const rows = await hyparquet.parquetReadObjects({
    file,
    compressors: codecs,
    utf8: false,
    parsers: parquetParsers,
  } as Parameters<Hyparquet['parquetReadObjects']>[0]);
  return rows.map((row) => normaliseParquetValue(row) as Record<string, unknown>);
}

/** The row count and the rows of row groups one at a time, for inputs that stream a file. */
export async function* parquetRowBatches(
  bytes: Uint8Array,
  rowsPerBatch: number,
): AsyncGenerator<Record<string, unknown>[]> {
  if (!hyparquet || !codecs) throw new Error('parquet reader is not loaded');
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const metadata = hyparquet.parquetMetadata(file);
  const total = Number(metadata.num_rows);
  for (let start = 0; start < total; start += rowsPerBatch) {
    const rows = await hyparquet.parquetReadObjects({
      file,
      metadata,
      rowStart: start,
      rowEnd: Math.min(total, start + rowsPerBatch),
      compressors: codecs,
      utf8: false,
      parsers: parquetParsers,
    } as Parameters<Hyparquet['parquetReadObjects']>[0]);
    yield rows.map((row) => normaliseParquetValue(row) as Record<string, unknown>);
  }
}
