// The service both modes run in, assembled once: the logger, the metrics registry (exported when
// the HTTP server is on), the main HTTP server, the process-wide stop signal, the in-process bus and
// the shared resources, and the tracer (src/tracing) when the `tracer` section names one.
import type { Logger } from 'pino';
import type { StatusEmitter } from '../components/kafka/section_status.js';
import { startSectionTopics } from '../components/kafka/section_topics.js';
import { type ConfigSource, inSource, inSourceSync } from '../config/config_source.js';
import type { ResourcesConfig, ServiceConfig } from '../config/service_config.js';
import { ComponentBuilder, type EngineEnv } from '../engine/builder.js';
import type { ComponentConfig } from '../engine/context.js';
import { errorMessage } from '../engine/errors.js';
import { MemoryInprocBus } from '../engine/inproc.js';
import type { UndeliveredCount } from '../engine/input_wrapper.js';
import { createLogger, type LogTap } from '../engine/logger.js';
import type { Registry } from '../engine/registry.js';
import { ResourceManager } from '../engine/resources.js';
import { stopController } from '../engine/stop_signal.js';
import { HttpServer, type HttpTimeouts } from '../http/server.js';
import {
  createMetricsRegistry,
  type MetricsRegistry,
  type MetricsRegistryOptions,
} from '../metrics/index.js';
import { startTracer } from '../tracing/index.js';
import { buildResources } from './build_resources.js';

/** How long the last log lines and status events may take to reach their topics when the service closes. */
const SECTION_TOPICS_CLOSE_MS = 5_000;

export interface ServiceOptions {
  config: Pick<ServiceConfig, 'logger' | 'metrics' | 'http' | 'tracer' | 'redpanda'>;
  /** The file the config came from: an HTTP setting the server refuses names its line there. */
  source: ConfigSource;
  registry: Registry;
  /** Directory relative Bloblang imports resolve against (the config file's). */
  baseDir: string;
  /** The config with secrets scrubbed, for the debug endpoints. */
  sanitisedConfig: () => unknown;
  /** `--log.level`, over the config's `logger.level`. */
  logLevel?: string;
  /** Logged as warnings as soon as the logger exists (lints let through by `--chilled`). */
  startupWarnings?: readonly string[];
  /** Slow-client guards of the HTTP server; tests shorten them. */
  httpTimeouts?: Partial<HttpTimeouts>;
  /** Counts messages inputs hand back undelivered at close (normal mode's exit status reads it). */
  undelivered?: UndeliveredCount;
}

export interface Service {
  readonly logger: Logger;
  readonly metrics: MetricsRegistry;
  readonly http: HttpServer;
  readonly resources: ResourceManager;
  /** Aborted when the service closes; a normal-mode stream stops with it too. */
  readonly stopController: AbortController;
  /** What every component of the service is built with. */
  readonly env: EngineEnv;
  /** The builder of shared resources (streams mode's API builds with it too). */
  readonly resourceBuilder: ComponentBuilder;
  /** The redpanda section's status_topic events, when it has one (normal mode reports its stream). */
  readonly sectionStatus: StatusEmitter | undefined;
  /** Resolves once the tracer (if any) is loaded: components built before it get no spans. */
  ready(): Promise<void>;
  /** Builds a file's `*_resources` sections; a field error names its place in `source`. */
  buildResources(config: ResourcesConfig, source: ConfigSource): Promise<void>;
  /** Opens the HTTP server (when enabled) and logs where it listens. */
  listen(): Promise<void>;
  /** Closes the shared resources, aborts the stop signal and closes the HTTP server. */
  close(): Promise<void>;
}

export function assembleService(options: ServiceOptions): Service {
  const { config, source } = options;
  const tap: LogTap = {};
  const logger = createLogger(
    options.logLevel ? { ...config.logger, level: options.logLevel } : config.logger,
    process.stderr,
    tap,
  );
  // The redpanda section's logs_topic takes the lines from here on, its status_topic hears that the
  // config was read; the sink's own failures go to the log.
  const sectionTopics = inSourceSync(source, () =>
    startSectionTopics(config.redpanda, tap, (m) => logger.warn(`redpanda logs_topic: ${m}`)),
  );
  for (const warning of options.startupWarnings ?? []) logger.warn(warning);
  const metrics = createMetricsRegistry(metricsOptions(config.metrics, config.http.enabled, logger));
  const http = inSourceSync(
    source,
    () =>
      new HttpServer({
        config: config.http,
        metricsHandler: metrics.handler,
        sanitisedConfig: options.sanitisedConfig,
        logger,
        timeouts: options.httpTimeouts,
      }),
  );
  sectionTopics?.status?.initialising();
  const resources = new ResourceManager();
  const abort = stopController();
  const tracer = startTracer(config.tracer, logger);
  const env: EngineEnv = {
    registry: options.registry,
    logger,
    metrics,
    resources,
    inproc: new MemoryInprocBus(),
    endpoints: http,
    signal: abort.signal,
    baseDir: options.baseDir,
    undelivered: options.undelivered,
    redpanda: config.redpanda,
  };
  const resourceBuilder = new ComponentBuilder(env);
  return {
    logger,
    metrics,
    http,
    resources,
    stopController: abort,
    env,
    resourceBuilder,
    sectionStatus: sectionTopics?.status,
    async ready() {
      const tracing = await tracer?.ready;
      if (tracing) env.tracing = tracing;
    },
    buildResources: (resourcesConfig, from) =>
      inSource(from, () => buildResources(resourcesConfig, resourceBuilder, resources)),
    listen: () => listenAndLog(http, logger),
    async close() {
      await resources.closeAll().catch((err) => logger.warn(`closing resources: ${errorMessage(err)}`));
      abort.abort();
      await http.close();
      await metrics.close();
      await tracer?.close();
      sectionTopics?.status?.exiting();
      await sectionTopics?.close(SECTION_TOPICS_CLOSE_MS);
    },
  };
}

/** The registry's options from the `metrics` section: its exporter, settings and mapping. */
function metricsOptions(section: ComponentConfig, exported: boolean, logger: Logger): MetricsRegistryOptions {
  const settings = (section.config ?? {}) as Record<string, unknown>;
  const written = section.raw as { mapping?: unknown } | undefined;
  return {
    type: section.type,
    exported,
    settings,
    // As the reference: process series only when asked for (prometheus' add_process_metrics).
    processMetrics: settings.add_process_metrics === true,
    mapping: typeof written?.mapping === 'string' ? written.mapping : undefined,
    logger,
  };
}

async function listenAndLog(http: HttpServer, logger: Logger): Promise<void> {
  await http.listen();
  const bound = http.address();
  if (bound)
    logger.info(
      `listening for HTTP requests at ${http.isTls ? 'https' : 'http'}://${bound.address}:${bound.port}`,
    );
}
