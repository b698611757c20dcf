// Loads `lru-cache` on first use, so a config without an LRU-backed cache never pays for it at start-up.
import type { LRUCache } from 'lru-cache';

export type LruCacheClass = typeof LRUCache;

let loaded: LruCacheClass | undefined;

export async function loadLruCache(): Promise<LruCacheClass> {
  loaded ??= (await import('lru-cache')).LRUCache;
  return loaded;
}

/** A clock in milliseconds; tests pass a fake one to step through TTLs without sleeping. */
export type Clock = () => number;

export const systemClock: Clock = () => performance.now();
