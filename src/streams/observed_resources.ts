// A stream's view of the shared processor, input and output resources, counted under the stream:
// one resource serves many streams, so its own series cannot say which stream used it
// (connect#3118). Each use through this view also counts in e.g. `processor_*{label=<resource>,
// path="root.processor_resources",stream=<id>}`, forgotten with the stream's other series.
import type { Processor } from '../engine/component.js';
import type { MetricsScope, Resources } from '../engine/context.js';
import { ObservedProcessor } from '../engine/observed_processor.js';
import { observedResourceInput, observedResourceOutput } from './observed_resource_io.js';

export function observeResourceUse(
  inner: Resources,
  scopeOf: (kind: 'processor' | 'input' | 'output', resourceName: string) => MetricsScope,
): Resources {
  // Per shared instance: a replaced resource gets fresh wrappers, the series stay the same.
  const observed = new WeakMap<Processor, ObservedProcessor>();
  const wrap = (name: string, processor: Processor): Processor => {
    let wrapped = observed.get(processor);
    if (!wrapped) {
      wrapped = new ObservedProcessor(processor, scopeOf('processor', name));
      observed.set(processor, wrapped);
    }
    return wrapped;
  };
  return {
    has: (kind, name) => inner.has(kind, name),
    useCache: (name, fn) => inner.useCache(name, fn),
    useRateLimit: (name, fn) => inner.useRateLimit(name, fn),
    useProcessor: (name, fn) => inner.useProcessor(name, (processor) => fn(wrap(name, processor))),
    input: (name) => observedResourceInput(inner.input(name), scopeOf('input', name)),
    output: (name) => observedResourceOutput(inner.output(name), scopeOf('output', name)),
  };
}
