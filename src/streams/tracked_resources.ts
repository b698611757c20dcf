// The Resources a stream's components see: the shared ResourceManager, plus a note of every
// resource name the stream asks about, so `DELETE /resources/...` can name the streams using it.
import type { Cache, Input, Output, Processor, RateLimit } from '../engine/component.js';
import type { Resources } from '../engine/context.js';
import type { ResourceKind } from '../engine/resources.js';

/** Resource kind → names used; filled lazily (most streams use no resources and cost nothing). */
export type ResourceUsage = Map<ResourceKind, Set<string>>;

export function usesResource(usage: ResourceUsage, kind: ResourceKind, name: string): boolean {
  return usage.get(kind)?.has(name) ?? false;
}

export function trackResourceUse(inner: Resources, usage: ResourceUsage): Resources {
  const note = (kind: ResourceKind, name: string) => {
    let names = usage.get(kind);
    if (!names) {
      names = new Set();
      usage.set(kind, names);
    }
    names.add(name);
  };
  return {
    has(kind, name) {
      note(kind, name);
      return inner.has(kind, name);
    },
    useCache<T>(name: string, fn: (cache: Cache) => Promise<T>) {
      note('cache', name);
      return inner.useCache(name, fn);
    },
    useRateLimit<T>(name: string, fn: (limit: RateLimit) => Promise<T>) {
      note('rate_limit', name);
      return inner.useRateLimit(name, fn);
    },
    useProcessor<T>(name: string, fn: (processor: Processor) => Promise<T>) {
      note('processor', name);
      return inner.useProcessor(name, fn);
    },
    input(name): Input {
      note('input', name);
      return inner.input(name);
    },
    output(name): Output {
      note('output', name);
      return inner.output(name);
    },
  };
}
