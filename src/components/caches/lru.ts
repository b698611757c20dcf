// `lru` cache: a fixed number of entries in process memory, evicting by recency (or 2Q / ARC).
import { type ConfigOf, defineComponent, field } from '../../config/spec.js';
import type { Cache } from '../../engine/component.js';
import { ConfigError } from '../../engine/errors.js';
import { refuseProblems } from '../fields/config_problems.js';
import { ArcPolicy } from './lru_arc.js';
import { loadLruCache } from './lru_module.js';
import { type LruPolicy, standardPolicy, TwoQueuePolicy } from './lru_policies.js';
import { initValuesField, optimisticField } from './shared_fields.js';

const fields = [
  field.int('cap', 'The most entries the cache holds.', { default: 1000 }),
  initValuesField(
    'Key/value pairs present from the start, e.g. a static lookup table. They can be overwritten.',
  ),
  field.string(
    'algorithm',
    'How entries are chosen for eviction: `standard` drops the least recently used; `two_queues` keeps keys seen only once apart from keys used again, so a burst of new keys does not push out the frequently used ones; `arc` (adaptive replacement) balances those two lists by itself from the keys it recently evicted.',
    { default: 'standard', advanced: true, options: ['arc', 'standard', 'two_queues'] },
  ),
  field.float(
    'two_queues_recent_ratio',
    'With `two_queues`: the share of the capacity for entries used only once so far.',
    { default: 0.25, optional: true, advanced: true },
  ),
  field.float(
    'two_queues_ghost_ratio',
    'With `two_queues`: how many recently evicted keys are remembered, as a share of the capacity.',
    { default: 0.5, optional: true, advanced: true },
  ),
  optimisticField(),
] as const;

export type LruCacheConfig = ConfigOf<typeof fields>;

const capacityProblems = (cap: number): string[] =>
  Number.isInteger(cap) && cap > 0 ? [] : ['invalid lru cache parameter capacity: must be bigger than 0'];

const encoder = new TextEncoder();

/** Per-item TTLs are ignored, as in the reference: entries leave only by eviction or delete. */
export class LruCache implements Cache {
  constructor(private readonly policy: LruPolicy) {}

  async get(key: string): Promise<Uint8Array | undefined> {
    return this.policy.get(key);
  }

  async set(key: string, value: Uint8Array, _ttlMs?: number): Promise<void> {
    this.policy.set(key, value);
  }

  /** Checking and setting happen in one synchronous step, so `add` is atomic even when `optimistic`. */
  async add(key: string, value: Uint8Array): Promise<boolean> {
    if (this.policy.peek(key) !== undefined) return false;
    this.policy.set(key, value);
    return true;
  }

  async delete(key: string): Promise<void> {
    this.policy.delete(key);
  }

  async close(): Promise<void> {}

  get size(): number {
    return this.policy.size;
  }
}

/** Builds the cache of a checked config; throws ConfigError on a bad capacity, algorithm or ratio. */
export async function lruCacheFromConfig(config: LruCacheConfig): Promise<LruCache> {
  refuseProblems(capacityProblems(config.cap));
  const Lru = await loadLruCache();
  let policy: LruPolicy;
  switch (config.algorithm) {
    case 'standard':
      policy = standardPolicy(Lru, config.cap);
      break;
    case 'arc':
      policy = new ArcPolicy(Lru, config.cap);
      break;
    case 'two_queues':
      try {
        policy = new TwoQueuePolicy(
          Lru,
          config.cap,
          config.two_queues_recent_ratio ?? 0.25,
          config.two_queues_ghost_ratio ?? 0.5,
        );
      } catch (err) {
        throw new ConfigError(`lru cache: ${(err as Error).message}`);
      }
      break;
    default:
      throw new ConfigError(
        `algorithm "${config.algorithm}" not supported. the supported values are "standard", "arc" and "two_queues"`,
      );
  }
  for (const [key, value] of Object.entries(config.init_values)) policy.set(key, encoder.encode(value));
  return new LruCache(policy);
}

export const spec = defineComponent({
  name: 'lru',
  kind: 'cache',
  status: 'stable',
  summary:
    'Stores key/value pairs in a fixed-size LRU cache in process memory; the cache is empty again after a restart.',
  description: `Once \`cap\` entries are held, storing a new key evicts the least recently used one (reads and writes both count as a use). Entries never expire by time: a \`ttl\` given by a processor is ignored.

\`init_values\` pre-loads entries, which makes a static lookup table; they can be overwritten and, like any entry, evicted:

\`\`\`yaml
cache_resources:
  - label: foocache
    lru:
      cap: 1024
      init_values:
        foo: bar
\`\`\``,
  fields,
  lint: (config) => capacityProblems(config.cap),
  examples: [
    {
      title: 'A bounded lookup table',
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
    lru:
      cap: 1024
      init_values:
        foo: bar
`,
    },
  ],
  build: (config): Promise<Cache> => lruCacheFromConfig(config),
});
