// `ristretto` cache: a memory-bound map in process memory with optional per-item TTLs. The
// reference wraps the Ristretto Go library; here lru-cache bounds the memory by value size.
import type { LRUCache } from 'lru-cache';
import { defineComponent, type FieldParseContext, type FieldSpec, field } from '../../config/spec.js';
import { Backoff, type BackoffConfig, sleep } from '../../engine/backoff.js';
import type { Cache } from '../../engine/component.js';
import { type BackoffFieldConfig, backoffField } from '../fields/backoff.js';
import { type Clock, type LruCacheClass, loadLruCache, systemClock } from './lru_module.js';

/** The reference's bound: 1 GiB (it counts entries; bytes are the honest bound in JavaScript). */
export const RISTRETTO_MAX_BYTES = 2 ** 30;

export interface RistrettoOptions {
  defaultTtlMs: number;
  /** Retry a missing key with this backoff before reporting it missing; null = no retries. */
  getRetries: BackoffConfig | null;
  maxBytes?: number;
  clock?: Clock;
  signal?: AbortSignal;
}

export class RistrettoCache implements Cache {
  private readonly store: LRUCache<string, Uint8Array>;
  private readonly maxBytes: number;

  constructor(
    Lru: LruCacheClass,
    private readonly options: RistrettoOptions,
  ) {
    this.maxBytes = options.maxBytes ?? RISTRETTO_MAX_BYTES;
    this.store = new Lru<string, Uint8Array>({
      maxSize: this.maxBytes,
      // Count the key too, so a flood of empty values is still bounded.
      sizeCalculation: (value, key) => Math.max(1, value.byteLength + key.length),
      ttlResolution: 0,
      perf: { now: options.clock ?? systemClock },
    });
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    const found = this.store.get(key);
    if (found !== undefined || this.options.getRetries === null) return found;
    const backoff = new Backoff(this.options.getRetries);
    for (;;) {
      const wait = backoff.next();
      if (wait === null) return undefined;
      if (!(await sleep(wait, this.options.signal))) return undefined;
      const later = this.store.get(key);
      if (later !== undefined) return later;
    }
  }

  async set(key: string, value: Uint8Array, ttlMs?: number): Promise<void> {
    if (value.byteLength + key.length > this.maxBytes) throw new Error('set operation was dropped');
    const ttl = ttlMs ?? this.options.defaultTtlMs;
    this.store.set(key, value, { ttl: Math.max(ttl, 0) });
  }

  /** As in the reference, `add` is a plain set: it never refuses an existing key. */
  async add(key: string, value: Uint8Array, ttlMs?: number): Promise<boolean> {
    await this.set(key, value, ttlMs);
    return true;
  }

  async delete(key: string): Promise<void> {
    this.store.delete(key);
  }

  async close(): Promise<void> {
    this.store.clear();
  }
}

/**
 * `get_retries`: the backoff object plus an `enabled` switch; the factory receives the backoff in
 * ms, or null when retries are off.
 */
function getRetriesField() {
  const backoff = backoffField(
    { initial_interval: '1s', max_interval: '5s', max_elapsed_time: '30s' },
    {
      advanced: true,
      description:
        'Whether and how a get of a missing key is retried before it is reported missing (the reference needs this because its writes land asynchronously; here a write is visible at once, so retries only delay a miss).',
    },
  );
  const parseBackoff = backoff.parse;
  return {
    ...backoff,
    name: 'get_retries',
    children: [
      field.bool('enabled', 'Whether gets of missing keys are retried.', {
        default: false,
        advanced: true,
      }),
      ...(backoff.children ?? []),
    ],
    // The raw value carries `enabled` too, which the backoff parser ignores.
    parse: (raw: GetRetriesConfig, ctx: FieldParseContext, path: string) =>
      raw.enabled && parseBackoff ? parseBackoff(raw, ctx, path) : null,
  } as FieldSpec<'get_retries', GetRetriesConfig, BackoffConfig | null>;
}

type GetRetriesConfig = BackoffFieldConfig & { enabled: boolean };

export const spec = defineComponent({
  name: 'ristretto',
  kind: 'cache',
  status: 'stable',
  summary: 'Stores key/value pairs in a memory-bound map in process memory, with optional TTLs.',
  description: `Meant for high-volume lookups. The cache holds at most 1 GiB of keys and values; beyond that the least recently used entries are evicted. \`add\` does not check whether the key exists (it overwrites, as in the reference), so this cache is not suitable for deduplication: use \`memory\`, \`lru\` or \`ttlru\` for that.

A \`ttl\` given by a processor overrides \`default_ttl\` for that item.`,
  fields: [
    field.duration(
      'default_ttl',
      'A TTL for items, counted from when the item is stored. An empty string or a zero duration disables TTLs.',
      { default: '', examples: ['5m', '60s'] },
    ),
    getRetriesField(),
  ],
  examples: [
    {
      title: 'A lookup cache with a TTL',
      config: `input:
  generate:
    count: 1
    mapping: 'root = {"id": "a"}'
pipeline:
  processors:
    - cache:
        resource: hot
        operator: set
        key: '\${! json("id") }'
        value: '\${! content() }'
output:
  stdout: {}
cache_resources:
  - label: hot
    ristretto:
      default_ttl: 5m
`,
    },
  ],
  build: async (config, ctx): Promise<Cache> =>
    new RistrettoCache(await loadLruCache(), {
      defaultTtlMs: config.default_ttl,
      getRetries: config.get_retries,
      signal: ctx.signal,
    }),
});
