// Where streams mode keeps what the API created, so that a restart brings it back (issue 23):
// stream and resource configs as posted (`${VAR}` never expanded), one record per key. The file,
// PostgreSQL and NATS KV stores implement this; a fleet's leases will be a second interface over
// the same connection (see LeaseCapable), so nothing here assumes one process owns everything.
import type { ResourceKind } from '../../engine/resources.js';
import { HttpError } from '../../listener/http_error.js';

/**
 * `streams` for stream configs, `<kind>_resources` for resources (the config file's section
 * names), `dynamic_members` for members posted to `dynamic` outputs (id `<stream>/<path>/<member>`).
 */
export type StoreSection = 'streams' | `${ResourceKind}_resources` | 'dynamic_members';

export interface StoreKey {
  section: StoreSection;
  id: string;
}

/** One stored config and how to read it back. */
export interface StoredValue {
  /** The config as posted: `${VAR}` references unexpanded. */
  config: unknown;
  /** True when `${VAR}` references are expanded on restore (the body came through an interpolating endpoint). */
  interpolate: boolean;
}

export interface StoredRecord extends StoreKey {
  value: StoredValue;
}

/** A change to the store, by any writer (the store's change feed: LISTEN/NOTIFY, KV watch). */
export interface StoreChange extends StoreKey {
  /** Undefined when the key was removed. */
  value: StoredValue | undefined;
}

export interface StreamStore {
  /** How messages name the store: its URL without a password. */
  readonly name: string;
  /** Connects (creating the table, bucket or directory when missing) and reads every record. */
  open(): Promise<StoredRecord[]>;
  /** Writes one record durably before resolving; throws StoreWriteError when it cannot. */
  put(key: StoreKey, value: StoredValue): Promise<void>;
  /** Removes one record (absent is fine); throws StoreWriteError when it cannot. */
  remove(key: StoreKey): Promise<void>;
  /** Why the store cannot be reached right now, or undefined while it can. */
  problem(): string | undefined;
  /** Calls `listener` for each change the store reports; stores without a feed never call it. */
  watch(listener: (change: StoreChange) => void): void;
  close(): Promise<void>;
}

/**
 * What a store adds for a fleet (later work, not implemented yet): a lease per stream id, renewed
 * by the node that runs it. Declared here so the three stores grow into it rather than around it.
 */
export interface LeaseCapable {
  acquire(streamId: string, nodeId: string, ttlMs: number): Promise<boolean>;
  renew(streamId: string, nodeId: string, ttlMs: number): Promise<boolean>;
  release(streamId: string, nodeId: string): Promise<void>;
}

/** A write the store refused or could not take: the change is not applied (503). */
export class StoreWriteError extends HttpError {
  constructor(store: string, cause: string) {
    super(503, `the stream store ${store} did not take the change: ${cause}`);
    this.name = 'StoreWriteError';
  }
}

/** The store could not be opened at start. */
export class StoreOpenError extends Error {
  constructor(store: string, cause: string) {
    super(`cannot open the stream store ${store}: ${cause}`);
    this.name = 'StoreOpenError';
  }
}

/** Keys as one safe token: letters, digits, `_` and `-` stay, anything else becomes `=XX` (UTF-8 hex). */
export function encodeId(id: string): string {
  let out = '';
  for (const byte of Buffer.from(id, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += /[A-Za-z0-9_-]/.test(ch) ? ch : `=${byte.toString(16).padStart(2, '0')}`;
  }
  return out;
}

export function decodeId(token: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < token.length; i++) {
    if (token[i] === '=') {
      bytes.push(Number.parseInt(token.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(token.charCodeAt(i));
  }
  return Buffer.from(bytes).toString('utf8');
}

const SECTIONS: readonly StoreSection[] = [
  'streams',
  'cache_resources',
  'rate_limit_resources',
  'processor_resources',
  'input_resources',
  'output_resources',
  'dynamic_members',
];

export function isStoreSection(value: string): value is StoreSection {
  return (SECTIONS as readonly string[]).includes(value);
}

/** A stored value read back, or undefined when it is not one (written by something else). */
export function asStoredValue(value: unknown): StoredValue | undefined {
  if (typeof value !== 'object' || value === null || !('config' in value)) return undefined;
  const interpolate = (value as { interpolate?: unknown }).interpolate === true;
  return { config: (value as { config: unknown }).config, interpolate };
}
