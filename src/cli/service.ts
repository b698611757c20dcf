// Pieces shared by normal mode and streams mode: the loaded service config, resources from it,
// and signal handling with shutdown_delay / shutdown_timeout.
import type { Logger } from 'pino';
import type { ResourcesConfig, ServiceConfig } from '../config/service_config.js';
import type { ComponentBuilder } from '../engine/builder.js';
import type { ComponentConfig } from '../engine/context.js';
import type { ResourceKind, ResourceManager } from '../engine/resources.js';

export interface LoadedService {
  config: ServiceConfig;
  /** The config with secrets scrubbed, for the debug endpoints. */
  sanitised: unknown;
  /** Directory of the config file: relative imports resolve against it. */
  baseDir: string;
  shutdownTimeoutMs: number;
  shutdownDelayMs: number;
  /** `--log.level` override. */
  logLevel?: string;
}

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

/**
 * On SIGINT/SIGTERM: wait shutdown_delay, then stop within shutdown_timeout. A second signal,
 * or the stop overrunning its timeout by a second, exits at once with status 1.
 */
export function shutdownOnSignals(
  logger: Logger,
  timing: { shutdownDelayMs: number; shutdownTimeoutMs: number },
  stop: () => Promise<void>,
): { dispose(): void } {
  const { shutdownDelayMs, shutdownTimeoutMs } = timing;
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn(`received ${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    logger.info(`received ${signal}: shutting down`);
    const hardStop = setTimeout(
      () => {
        logger.error('shutdown did not finish within shutdown_timeout: exiting');
        process.exit(1);
      },
      shutdownDelayMs + shutdownTimeoutMs + 1000,
    );
    hardStop.unref();
    setTimeout(() => {
      stop().catch((err) => logger.error(`shutdown failed: ${String(err)}`));
    }, shutdownDelayMs);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
