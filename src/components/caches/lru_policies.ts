// The eviction policies of the `lru` cache: plain LRU (lru-cache), 2Q and ARC. Each keeps at most
// `capacity` values; 2Q and ARC also remember some evicted keys ("ghosts") to judge reuse.
import type { LRUCache } from 'lru-cache';
import type { LruCacheClass } from './lru_module.js';

export interface LruPolicy {
  /** Reads and counts as a use. */
  get(key: string): Uint8Array | undefined;
  /** Reads without touching recency. */
  peek(key: string): Uint8Array | undefined;
  set(key: string, value: Uint8Array): void;
  delete(key: string): void;
  readonly size: number;
}

type Store = LRUCache<string, Uint8Array>;

/** A bounded LRU list; `lru-cache` drops the least recently used entry once `max` is reached. */
function lruList(Lru: LruCacheClass, max: number): Store {
  return new Lru<string, Uint8Array>({ max: Math.max(1, max) });
}

/** The standard policy: evicts the least recently used entry (gets and sets both count as use). */
export function standardPolicy(Lru: LruCacheClass, capacity: number): LruPolicy {
  const store = lruList(Lru, capacity);
  return {
    get: (key) => store.get(key),
    peek: (key) => store.peek(key),
    set: (key, value) => {
      store.set(key, value);
    },
    delete: (key) => {
      store.delete(key);
    },
    get size() {
      return store.size;
    },
  };
}

/**
 * 2Q: a new key goes to a "recent" queue; only a key used again moves to the "frequent" LRU, so
 * a burst of one-off keys cannot push out the keys that are used often. Keys evicted from
 * "recent" are remembered as ghosts: setting one again goes straight to "frequent".
 */
export class TwoQueuePolicy implements LruPolicy {
  private readonly recent: Store;
  private readonly frequent: Store;
  private readonly ghosts: Set<string> = new Set();
  private readonly recentTarget: number;
  private readonly ghostCapacity: number;

  constructor(
    Lru: LruCacheClass,
    private readonly capacity: number,
    recentRatio: number,
    ghostRatio: number,
  ) {
    if (recentRatio < 0 || recentRatio > 1) throw new Error('invalid recent ratio');
    if (ghostRatio < 0 || ghostRatio > 1) throw new Error('invalid ghost ratio');
    this.recentTarget = Math.floor(capacity * recentRatio);
    this.ghostCapacity = Math.floor(capacity * ghostRatio);
    // Unbounded lists (capacity + 1 is never reached): this class decides what to evict.
    this.recent = lruList(Lru, capacity + 1);
    this.frequent = lruList(Lru, capacity + 1);
  }

  get size(): number {
    return this.recent.size + this.frequent.size;
  }

  get(key: string): Uint8Array | undefined {
    const often = this.frequent.get(key);
    if (often !== undefined) return often;
    const once = this.recent.peek(key);
    if (once === undefined) return undefined;
    // A second use promotes the key to the frequent list.
    this.recent.delete(key);
    this.frequent.set(key, once);
    return once;
  }

  peek(key: string): Uint8Array | undefined {
    return this.frequent.peek(key) ?? this.recent.peek(key);
  }

  set(key: string, value: Uint8Array): void {
    if (this.frequent.has(key)) {
      this.frequent.set(key, value);
      return;
    }
    if (this.recent.has(key)) {
      this.recent.delete(key);
      this.frequent.set(key, value);
      return;
    }
    if (this.ghosts.has(key)) {
      this.ghosts.delete(key);
      this.makeRoom(true);
      this.frequent.set(key, value);
      return;
    }
    this.makeRoom(false);
    this.recent.set(key, value);
  }

  delete(key: string): void {
    this.frequent.delete(key);
    this.recent.delete(key);
    this.ghosts.delete(key);
  }

  private makeRoom(toFrequent: boolean): void {
    if (this.size < this.capacity) return;
    const recentCount = this.recent.size;
    if (
      recentCount > 0 &&
      (recentCount > this.recentTarget || (recentCount === this.recentTarget && !toFrequent))
    ) {
      const oldest = lastKey(this.recent);
      if (oldest === undefined) return;
      this.recent.delete(oldest);
      this.ghosts.add(oldest);
      if (this.ghosts.size > this.ghostCapacity) {
        const first = this.ghosts.values().next().value;
        if (first !== undefined) this.ghosts.delete(first);
      }
      return;
    }
    const oldest = lastKey(this.frequent);
    if (oldest !== undefined) this.frequent.delete(oldest);
  }
}

/** The least recently used key of a list (lru-cache's rkeys() walks from the oldest). */
function lastKey(store: Store): string | undefined {
  const next = store.rkeys().next();
  return next.done ? undefined : next.value;
}
