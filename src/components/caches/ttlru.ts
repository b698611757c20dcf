// `ttlru` cache: a fixed-size LRU whose entries also expire a fixed TTL after they were written.
import type { LRUCache } from 'lru-cache';
import { parseDurationMs } from '../../config/duration.js';
import { type ConfigOf, defineComponent, field, type RawConfigOf } from '../../config/spec.js';
import type { Cache } from '../../engine/component.js';
import { refuseProblems } from '../fields/config_problems.js';
import { type Clock, type LruCacheClass, loadLruCache, systemClock } from './lru_module.js';
import { initValuesField, optimisticField } from './shared_fields.js';

const encoder = new TextEncoder();

/**
 * The TTL restarts when a key is written again, not when it is read; per-item TTLs are ignored
 * (as in the reference). A full cache evicts the least recently used entry; expired entries are
 * swept at most every hundredth of the TTL, so they free their room soon after expiring.
 */
export class TtlruCache implements Cache {
  private readonly store: LRUCache<string, Uint8Array>;
  private readonly sweepEveryMs: number;
  private lastSweep: number;

  constructor(
    Lru: LruCacheClass,
    private readonly capacity: number,
    ttlMs: number,
    initValues: Record<string, string> = {},
    private readonly clock: Clock = systemClock,
  ) {
    this.store = new Lru<string, Uint8Array>({
      max: capacity,
      ttl: ttlMs,
      // Exact expiry against the (possibly injected) clock; reads do not extend the TTL.
      ttlResolution: 0,
      updateAgeOnGet: false,
      perf: { now: clock },
    });
    this.sweepEveryMs = ttlMs / 100;
    this.lastSweep = clock();
    for (const [key, value] of Object.entries(initValues)) this.store.set(key, encoder.encode(value));
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    return this.store.get(key);
  }

  async set(key: string, value: Uint8Array, _ttlMs?: number): Promise<void> {
    this.write(key, value);
  }

  async add(key: string, value: Uint8Array): Promise<boolean> {
    // An expired entry counts as absent.
    if (this.store.peek(key) !== undefined) return false;
    this.write(key, value);
    return true;
  }

  async delete(key: string): Promise<void> {
    this.store.delete(key);
  }

  async close(): Promise<void> {
    this.store.clear();
  }

  /** Entries held, expired ones not yet swept included (for tests). */
  get size(): number {
    return this.store.size;
  }

  private write(key: string, value: Uint8Array): void {
    if (this.store.size >= this.capacity && !this.store.has(key)) this.sweep();
    this.store.set(key, value);
  }

  /** Drops expired entries before a full cache evicts a live one, at most once per sweep period. */
  private sweep(): void {
    const now = this.clock();
    if (now - this.lastSweep < this.sweepEveryMs) return;
    this.lastSweep = now;
    this.store.purgeStale();
  }
}

const CAP_NOT_POSITIVE = 'invalid ttlru cache parameter capacity: must be bigger than 0';
const TTL_NOT_POSITIVE = 'invalid ttlru cache parameter default_ttl: must be bigger than 0s';

const fields = [
  field.int('cap', 'The most entries the cache holds.', { default: 1024 }),
  field.duration('default_ttl', 'How long an entry lives after it was last written. Must be above zero.', {
    default: '5m0s',
  }),
  field.duration('ttl', 'Deprecated: use `default_ttl`. When set, it replaces `default_ttl`.', {
    optional: true,
    advanced: true,
  }),
  initValuesField('Key/value pairs present from the start, e.g. a static lookup table.'),
  optimisticField(),
] as const;

/** The config as written (TTLs as duration text), as tests and lint see it. */
export type TtlruCacheConfig = RawConfigOf<typeof fields>;

/** Problems decidable from the config alone; the deprecated `ttl` wins over `default_ttl`. */
function configProblems(config: { cap: number; ttlMs: number | undefined }): string[] {
  const problems: string[] = [];
  if (!Number.isInteger(config.cap) || config.cap <= 0) problems.push(CAP_NOT_POSITIVE);
  if (config.ttlMs !== undefined && config.ttlMs <= 0) problems.push(TTL_NOT_POSITIVE);
  return problems;
}

/** Lint sees the TTL as written; an unreadable one is reported by the duration check instead. */
function writtenTtlMs(config: TtlruCacheConfig): number | undefined {
  try {
    return parseDurationMs((config.ttl ?? config.default_ttl).trim());
  } catch {
    return undefined;
  }
}

function effectiveTtlMs(config: ConfigOf<typeof fields>): number {
  return config.ttl ?? config.default_ttl;
}

export const spec = defineComponent({
  name: 'ttlru',
  kind: 'cache',
  status: 'stable',
  summary:
    'Stores key/value pairs in a fixed-size LRU cache in process memory whose entries expire a TTL after they were written; the cache is empty again after a restart.',
  description: `Every entry lives \`default_ttl\` after it was last written (reading it does not extend it); a \`ttl\` given by a processor is ignored. When the cache holds \`cap\` entries, storing a new key evicts the least recently used one; expired entries are swept from memory soon after they expire, so they do not push out live ones.

\`init_values\` pre-loads entries (which expire like any other):

\`\`\`yaml
cache_resources:
  - label: foocache
    ttlru:
      default_ttl: '5m'
      cap: 1024
      init_values:
        foo: bar
\`\`\``,
  fields,
  lint: (config) => configProblems({ cap: config.cap, ttlMs: writtenTtlMs(config) }),
  examples: [
    {
      title: 'Remember recent ids for a minute',
      config: `input:
  generate:
    count: 4
    interval: ''
    mapping: 'root.id = counter() % 2'
pipeline:
  processors:
    - cache:
        resource: recent
        operator: add
        key: '\${! json("id") }'
        value: 'x'
    - mapping: 'root = if errored() { deleted() }'
output:
  stdout: {}
cache_resources:
  - label: recent
    ttlru:
      cap: 10000
      default_ttl: 60s
`,
    },
  ],
  build: async (config, ctx): Promise<Cache> => {
    const ttlMs = effectiveTtlMs(config);
    refuseProblems(configProblems({ cap: config.cap, ttlMs }));
    if (config.ttl !== undefined) ctx.logger.warn('field "ttl" is deprecated, please use "default_ttl"');
    return new TtlruCache(await loadLruCache(), config.cap, ttlMs, config.init_values);
  },
});
