// Builds one resource component of a kind, so the API, `-r` files and the observability config
// install resources the same way.
import type { ComponentBuilder } from '../engine/builder.js';
import type { ComponentConfig } from '../engine/context.js';
import type { ResourceKind } from '../engine/resources.js';

type Closable = { close(): Promise<void> };

export function buildResource(
  builder: ComponentBuilder,
  kind: ResourceKind,
  cc: ComponentConfig,
): Promise<Closable> {
  switch (kind) {
    case 'cache':
      return builder.buildCache(cc);
    case 'rate_limit':
      return builder.buildRateLimit(cc);
    case 'processor':
      return builder.buildProcessor(cc);
    case 'input':
      return builder.buildInput(cc);
    case 'output':
      return builder.buildOutput(cc);
  }
}
