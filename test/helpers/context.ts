// A real BuildContext (and the engine env behind it) for component tests, with no HTTP server
// unless one is given, no-op metrics and a silent logger.
import { pino } from 'pino';
import { registry as builtinRegistry } from '../../src/components/registry.js';
import { ComponentBuilder, type EndpointRegistrar, type EngineEnv } from '../../src/engine/builder.js';
import type { BuildContext, ComponentConfig } from '../../src/engine/context.js';
import { MemoryInprocBus } from '../../src/engine/inproc.js';
import { noopMetrics } from '../../src/engine/noop_metrics.js';
import type { Registry } from '../../src/engine/registry.js';
import { ResourceManager } from '../../src/engine/resources.js';

export interface TestEnvOptions {
  registry?: Registry;
  resources?: ResourceManager;
  endpoints?: EndpointRegistrar;
  streamId?: string;
  /** The service config's top-level `redpanda` section (redpanda_common components). */
  redpanda?: Record<string, unknown>;
}

export interface TestEnv {
  env: EngineEnv;
  builder: ComponentBuilder;
  resources: ResourceManager;
  abort: AbortController;
}

export function createTestEnv(options: TestEnvOptions = {}): TestEnv {
  const abort = new AbortController();
  const resources = options.resources ?? new ResourceManager();
  const env: EngineEnv = {
    registry: options.registry ?? builtinRegistry,
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    metrics: noopMetrics,
    resources,
    inproc: new MemoryInprocBus(),
    endpoints: options.endpoints,
    streamId: options.streamId,
    signal: abort.signal,
    redpanda: options.redpanda,
  };
  return { env, builder: new ComponentBuilder(env), resources, abort };
}

/** A BuildContext for a component of the given type/label at the given path. */
export function createTestContext(
  partial: Partial<ComponentConfig> = {},
  options: TestEnvOptions = {},
): BuildContext & { testEnv: TestEnv } {
  const testEnv = createTestEnv(options);
  const cc: ComponentConfig = {
    type: partial.type ?? 'test',
    label: partial.label ?? '',
    config: partial.config ?? {},
    processors: partial.processors ?? [],
    path: partial.path ?? 'root.test',
    raw: partial.raw ?? {},
  };
  return Object.assign(testEnv.builder.context(cc), { testEnv });
}
