// The `*_resources` sections of a config built into the shared resource manager, in normal mode
// and streams mode alike.
import type { ResourcesConfig } from '../config/service_config.js';
import type { ComponentBuilder } from '../engine/builder.js';
import type { ComponentConfig } from '../engine/context.js';
import type { ResourceKind, ResourceManager } from '../engine/resources.js';

/** Builds every `*_resources` entry into the manager, named by its label. */
export async function buildResources(
  config: ResourcesConfig,
  builder: ComponentBuilder,
  resources: ResourceManager,
): Promise<void> {
  const build: Record<ResourceKind, (cc: ComponentConfig) => Promise<{ close(): Promise<void> }>> = {
    cache: (cc) => builder.buildCache(cc),
    rate_limit: (cc) => builder.buildRateLimit(cc),
    processor: (cc) => builder.buildProcessor(cc),
    input: (cc) => builder.buildInput(cc),
    output: (cc) => builder.buildOutput(cc),
  };
  for (const kind of Object.keys(build) as ResourceKind[]) {
    for (const cc of config[`${kind}_resources`]) {
      await resources.set(kind, cc.label, await build[kind](cc), cc.raw);
    }
  }
}
