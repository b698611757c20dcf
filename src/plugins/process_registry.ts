// The registry of this process: the built-ins plus every plugin registered so far. Built anew only
// when a plugin was added since the last call, so call it after plugins load, not at import.
import { Registry } from '../engine/registry.js';
import { builtinSpecs, pluginSpecs } from './plugin_specs.js';

let cached: { registry: Registry; plugins: number } | undefined;

export function processRegistry(): Registry {
  const plugins = pluginSpecs();
  if (cached?.plugins !== plugins.length) {
    cached = { registry: new Registry([...builtinSpecs, ...plugins]), plugins: plugins.length };
  }
  return cached.registry;
}
