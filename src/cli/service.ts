// Pieces shared by normal mode and streams mode: the loaded service config, resources from it,
// and signal handling with shutdown_delay / shutdown_timeout.
import type { Logger } from 'pino';
import type { ResourcesConfig, ServiceConfig } from '../config/service_config.js';
import type { ComponentBuilder } from '../engine/builder.js';
import type { ComponentConfig } from '../engine/context.js';
import type { Registry } from '../engine/registry.js';
import type { ResourceKind, ResourceManager } from '../engine/resources.js';
import { onStdoutClosed } from '../engine/stdout_closed.js';
import { timerDelay } from '../engine/timer_delay.js';
import type { ConfigSource } from './config_source.js';
import type { ResourceFile } from './resource_files.js';

export interface LoadedService {
  config: ServiceConfig;
  /** The main config file, for errors found while building its components. */
  source: ConfigSource;
  /** `-r` files: their resources are built after the main file's. */
  resourceFiles: ResourceFile[];
  /** The config with secrets scrubbed, for the debug endpoints. */
  sanitised: unknown;
  /** Directory of the config file: relative imports resolve against it. */
  baseDir: string;
  shutdownTimeoutMs: number;
  shutdownDelayMs: number;
  /** `--log.level` override. */
  logLevel?: string;
  /** The built-ins plus `-t` templates; absent means the built-ins. */
  registry?: Registry;
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
 * or the stop overrunning its timeout by a second, exits at once with status 1. When the reader of
 * stdout goes away (`| head`), stop at once: `stop(0)` nacks what is still in flight, since those
 * writes can never succeed, and `stdoutClosed` tells the caller to exit with status 141.
 */
export function shutdownOnSignals(
  logger: Logger,
  timing: { shutdownDelayMs: number; shutdownTimeoutMs: number },
  stop: (timeoutMs: number) => Promise<void>,
): { dispose(): void; readonly stdoutClosed: boolean } {
  const { shutdownDelayMs, shutdownTimeoutMs } = timing;
  let stopping = false;
  let stdoutClosed = false;
  const stopWithin = (timeoutMs: number, delayMs: number) => {
    stopping = true;
    const hardStop = setTimeout(
      () => {
        logger.error('shutdown did not finish within shutdown_timeout: exiting');
        process.exit(1);
      },
      timerDelay(delayMs + timeoutMs + 1000),
    );
    hardStop.unref();
    setTimeout(() => {
      stop(timeoutMs).catch((err) => logger.error(`shutdown failed: ${String(err)}`));
    }, timerDelay(delayMs));
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn(`received ${signal} again: exiting now`);
      process.exit(1);
    }
    logger.info(`received ${signal}: shutting down`);
    stopWithin(shutdownTimeoutMs, shutdownDelayMs);
  };
  const unsubscribe = onStdoutClosed((err) => {
    stdoutClosed = true;
    if (stopping) return;
    logger.warn(`stdout was closed by its reader (${err.message}): shutting down`);
    stopWithin(0, 0);
  });
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    dispose() {
      unsubscribe();
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
    get stdoutClosed() {
      return stdoutClosed;
    },
  };
}
