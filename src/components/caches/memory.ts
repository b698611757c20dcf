// `memory` cache: a map in process memory with per-item TTLs, swept on writes.
import { defineComponent, field } from '../../config/spec.js';
import type { Cache } from '../../engine/component.js';
import { initValuesField } from './shared_fields.js';

interface Item {
  value: Uint8Array;
  /** Epoch ms after which the item is gone; Infinity for init values. */
  expires: number;
}

const encoder = new TextEncoder();

export class MemoryCache implements Cache {
  private readonly items = new Map<string, Item>();
  private lastCompaction = Date.now();

  /** compactionMs of 0 disables expiry altogether, as an empty `compaction_interval` does. */
  constructor(
    private readonly defaultTtlMs: number,
    private readonly compactionMs: number,
    initValues: Record<string, string> = {},
  ) {
    for (const [key, value] of Object.entries(initValues)) {
      this.items.set(key, { value: encoder.encode(value), expires: Number.POSITIVE_INFINITY });
    }
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    return this.live(key)?.value;
  }

  async set(key: string, value: Uint8Array, ttlMs?: number): Promise<void> {
    this.compact();
    this.items.set(key, { value, expires: this.expiry(ttlMs) });
  }

  async add(key: string, value: Uint8Array, ttlMs?: number): Promise<boolean> {
    // An expired item counts as absent even before compaction removes it.
    if (this.live(key)) return false;
    this.compact();
    this.items.set(key, { value, expires: this.expiry(ttlMs) });
    return true;
  }

  async delete(key: string): Promise<void> {
    this.compact();
    this.items.delete(key);
  }

  async close(): Promise<void> {
    this.items.clear();
  }

  /** Items held, expired or not (for tests and metrics). */
  get size(): number {
    return this.items.size;
  }

  private live(key: string): Item | undefined {
    const item = this.items.get(key);
    if (item === undefined) return undefined;
    return this.compactionMs > 0 && item.expires <= Date.now() ? undefined : item;
  }

  private expiry(ttlMs: number | undefined): number {
    return Date.now() + (ttlMs ?? this.defaultTtlMs);
  }

  /** Sweeps expired items at most once per compaction interval, on writes only (as the reference). */
  private compact(): void {
    if (this.compactionMs <= 0) return;
    const now = Date.now();
    if (now - this.lastCompaction < this.compactionMs) return;
    for (const [key, item] of this.items) if (item.expires <= now) this.items.delete(key);
    this.lastCompaction = now;
  }
}

export const spec = defineComponent({
  name: 'memory',
  kind: 'cache',
  status: 'stable',
  summary:
    'Stores key/value pairs in process memory. Each item expires a TTL after it was last written; the cache is empty again after a restart.',
  description: `Expired items are never returned; they are removed from memory at the next write after each \`compaction_interval\`. Setting \`compaction_interval\` to an empty string disables expiry entirely.

\`init_values\` pre-loads items that never expire (until overwritten), which makes a static lookup table:

\`\`\`yaml
cache_resources:
  - label: lookup
    memory:
      init_values:
        foo: bar
\`\`\``,
  fields: [
    field.duration(
      'default_ttl',
      'How long an item lives after it was written, unless the write sets its own TTL.',
      {
        default: '5m',
      },
    ),
    field.duration(
      'compaction_interval',
      'How often expired items are removed from memory. An empty string disables expiry entirely.',
      { default: '60s' },
    ),
    initValuesField('Key/value pairs present from the start; they do not expire.'),
    field.int(
      'shards',
      'Accepted for compatibility. nekton keeps one map: JavaScript runs the cache on one thread, so shards would not reduce contention.',
      { default: 1, advanced: true },
    ),
  ],
  examples: [
    {
      title: 'A lookup table plus short-lived keys',
      config: `input:
  generate:
    count: 1
    mapping: 'root = "foo"'
pipeline:
  processors:
    - cache:
        resource: lookup
        operator: get
        key: '\${! content() }'
output:
  stdout: {}
cache_resources:
  - label: lookup
    memory:
      default_ttl: 60s
      init_values:
        foo: bar
`,
    },
  ],
  // An empty compaction_interval parses to 0, which disables expiry.
  build: (config): Cache =>
    new MemoryCache(config.default_ttl, config.compaction_interval, config.init_values),
});
