// ARC (adaptive replacement cache) for the `lru` cache: entries seen once (`recent`) and entries
// used again (`frequent`) share the capacity, and the split between them (`recentTarget`) moves
// towards whichever list's evicted keys ("ghosts") are asked for again.
import type { LRUCache } from 'lru-cache';
import type { LruCacheClass } from './lru_module.js';
import type { LruPolicy } from './lru_policies.js';

type Store = LRUCache<string, Uint8Array>;
type Ghosts = LRUCache<string, true>;

export class ArcPolicy implements LruPolicy {
  private readonly recent: Store;
  private readonly frequent: Store;
  private readonly recentGhosts: Ghosts;
  private readonly frequentGhosts: Ghosts;
  private recentTarget = 0;

  constructor(
    Lru: LruCacheClass,
    private readonly capacity: number,
  ) {
    // Lists one larger than the capacity never evict by themselves: this class decides.
    this.recent = new Lru<string, Uint8Array>({ max: capacity + 1 });
    this.frequent = new Lru<string, Uint8Array>({ max: capacity + 1 });
    this.recentGhosts = new Lru<string, true>({ max: capacity + 1 });
    this.frequentGhosts = new Lru<string, true>({ max: capacity + 1 });
  }

  get size(): number {
    return this.recent.size + this.frequent.size;
  }

  get(key: string): Uint8Array | undefined {
    const once = this.recent.peek(key);
    if (once !== undefined) {
      this.recent.delete(key);
      this.frequent.set(key, once);
      return once;
    }
    return this.frequent.get(key);
  }

  peek(key: string): Uint8Array | undefined {
    return this.recent.peek(key) ?? this.frequent.peek(key);
  }

  set(key: string, value: Uint8Array): void {
    if (this.recent.has(key)) {
      this.recent.delete(key);
      this.frequent.set(key, value);
      return;
    }
    if (this.frequent.has(key)) {
      this.frequent.set(key, value);
      return;
    }
    if (this.recentGhosts.has(key)) {
      // The recent list was too small: grow its share.
      const step = Math.max(1, Math.floor(this.frequentGhosts.size / this.recentGhosts.size));
      this.recentTarget = Math.min(this.recentTarget + step, this.capacity);
      if (this.size >= this.capacity) this.evict(false);
      this.recentGhosts.delete(key);
      this.frequent.set(key, value);
      return;
    }
    if (this.frequentGhosts.has(key)) {
      // The frequent list was too small: shrink the recent share.
      const step = Math.max(1, Math.floor(this.recentGhosts.size / this.frequentGhosts.size));
      this.recentTarget = Math.max(this.recentTarget - step, 0);
      if (this.size >= this.capacity) this.evict(true);
      this.frequentGhosts.delete(key);
      this.frequent.set(key, value);
      return;
    }
    if (this.size >= this.capacity) this.evict(false);
    if (this.recentGhosts.size > this.capacity - this.recentTarget) dropOldest(this.recentGhosts);
    if (this.frequentGhosts.size > this.recentTarget) dropOldest(this.frequentGhosts);
    this.recent.set(key, value);
  }

  delete(key: string): void {
    this.recent.delete(key);
    this.frequent.delete(key);
    this.recentGhosts.delete(key);
    this.frequentGhosts.delete(key);
  }

  /** Evicts one entry from the list that is over its share, remembering its key as a ghost. */
  private evict(keyInFrequentGhosts: boolean): void {
    const recentCount = this.recent.size;
    if (
      recentCount > 0 &&
      (recentCount > this.recentTarget || (recentCount === this.recentTarget && keyInFrequentGhosts))
    ) {
      const key = dropOldest(this.recent);
      if (key !== undefined) this.recentGhosts.set(key, true);
      return;
    }
    const key = dropOldest(this.frequent);
    if (key !== undefined) this.frequentGhosts.set(key, true);
  }
}

/** Removes the least recently used entry of a list and returns its key. */
function dropOldest<V extends {}>(store: LRUCache<string, V>): string | undefined {
  const next = store.rkeys().next();
  if (next.done) return undefined;
  store.delete(next.value);
  return next.value;
}
