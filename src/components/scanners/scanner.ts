// Scanners (Benthos "codecs") turn one byte stream — a file, stdin, an HTTP body — into messages.
// A scanner yields the messages it finds per chunk read, so the hot path costs one await per
// chunk, not per message; inputs then hand them out as they see fit.
import { type FieldOptions, type FieldSpec, field } from '../../config/spec.js';

import { ConfigError } from '../../engine/errors.js';
import type { Message } from '../../message/message.js';

/** What a scanner may know about the stream it reads (the `switch` scanner matches on `name`). */
export interface ScanDetails {
  /** A file path or similar name of the source, when there is one. */
  name?: string;
}

/** Raw bytes in chunks; node Readables (fs streams, stdin, http requests) are such iterables. */
export type ByteSource = AsyncIterable<Uint8Array | string>;

/** Splits a stream into messages, yielding each chunk's worth as one array (never an empty one). */
export type Scanner = (source: ByteSource, details: ScanDetails) => AsyncIterable<Message[]>;

/**
 * A nested scanner field. Its value stays as written (`{lines: {}}`): `buildScanner` reads it,
 * so it is typed `unknown` rather than as a normalised component.
 */
export function scannerField<const N extends string>(
  name: N,
  description: string,
  options?: FieldOptions,
): FieldSpec<N, unknown> {
  return field.component('scanner', name, description, options) as FieldSpec<N, unknown>;
}

/**
 * One step of a scanner: `fill` pushes the messages it finds. When it fails midway, the messages
 * found before the failure still go out, then the error: Benthos's scanners hand out every
 * record before the bad one. Used as `yield* scanned((out) => ...)`.
 */
export function* scanned(fill: (out: Message[]) => void): Generator<Message[], void, undefined> {
  const messages: Message[] = [];
  let failure: { error: unknown } | null = null;
  try {
    fill(messages);
  } catch (error) {
    failure = { error };
  }
  if (messages.length > 0) yield messages;
  if (failure) throw failure.error;
}

export function asBuffer(chunk: Uint8Array | string): Buffer {
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/**
 * The name and settings of a nested scanner value: `{lines: {...}}` as written, or the engine's
 * normalised `{type: 'lines', config: {...}}`.
 */
export function scannerNameAndConfig(value: unknown): { name: string; config: unknown } {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    if (typeof obj.type === 'string' && 'config' in obj) return { name: obj.type, config: obj.config };
    const keys = Object.keys(obj).filter((k) => k !== 'meta' && k !== 'type' && k !== 'plugin');
    if (keys.length === 1) return { name: keys[0] as string, config: obj[keys[0] as string] };
    if (keys.length === 0 && typeof obj.type === 'string') return { name: obj.type, config: {} };
  }
  throw new ConfigError(
    `a scanner must be an object with exactly one scanner name, got ${JSON.stringify(value)}`,
  );
}

/** Fills absent fields from their defaults (the engine may already have; this is idempotent). */
export function withFieldDefaults(fields: readonly FieldSpec[], value: unknown): Record<string, unknown> {
  const given =
    value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const out: Record<string, unknown> = { ...given };
  for (const f of fields) {
    if (out[f.name] !== undefined) continue;
    if (f.default !== undefined) out[f.name] = structuredClone(f.default);
    else if (f.kind === 'array') out[f.name] = [];
    else if (f.kind === 'map') out[f.name] = {};
    else if (f.type === 'object' && f.children) out[f.name] = withFieldDefaults(f.children, undefined);
  }
  return out;
}
