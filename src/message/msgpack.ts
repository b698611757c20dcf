// MessagePack <-> structured values (@msgpack/msgpack), shared by the `msgpack` processor and the
// Bloblang `parse_msgpack`/`format_msgpack` methods. Integers are written in their smallest form
// (as the reference's Go library does); 64-bit integers beyond 2^53 travel as bigint; the
// timestamp extension reads as a timestamp; bin as bytes.
import { msgpackNow } from '../base/lazy_packages.js';
import { JsonNumber, Timestamp } from './value.js';

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  !(v instanceof Uint8Array) &&
  !(v instanceof Timestamp) &&
  !(v instanceof JsonNumber) &&
  !(v instanceof Date);

/** Values the encoder takes: safe bigints as numbers, timestamps as Dates, kept-text numbers as numbers. */
function forEncoding(v: unknown): unknown {
  if (typeof v === 'bigint')
    return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
  if (v instanceof JsonNumber) return Number(v.text);
  if (v instanceof Timestamp) return new Date(Number(v.epochNs / 1_000_000n));
  if (Array.isArray(v)) return v.map(forEncoding);
  if (isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = forEncoding(x);
    return out;
  }
  return v;
}

export function toMsgpack(value: unknown): Uint8Array {
  return msgpackNow().encode(forEncoding(value), { useBigInt64: true });
}

/** Decoded values as structured ones: small bigints as numbers, Dates as timestamps. */
function fromDecoded(v: unknown): unknown {
  if (typeof v === 'bigint')
    return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
  if (v instanceof Date) return new Timestamp(BigInt(v.getTime()) * 1_000_000n);
  if (v instanceof Uint8Array) return v;
  if (Array.isArray(v)) return v.map(fromDecoded);
  if (typeof v === 'object' && v !== null) {
    if (v.constructor?.name === 'ExtData')
      throw new Error(`unsupported MessagePack extension type ${(v as { type: number }).type}`);
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = fromDecoded(x);
    return out;
  }
  return v;
}

export function fromMsgpack(bytes: Uint8Array): unknown {
  return fromDecoded(msgpackNow().decode(bytes, { useBigInt64: true }));
}
