// Normal mode: one stream from a config file, with the service-wide HTTP server, until the input
// is exhausted (exit 0) or a signal stops it (exit 0 when everything in flight was delivered,
// 1 when the stop had to nack messages to their source). With `-w` the config is reloaded when
// its files change.
import type { Logger } from 'pino';
import { inSource } from '../config/config_source.js';
import { ComponentBuilder, type EngineEnv } from '../engine/builder.js';
import type { EndpointHandler } from '../engine/context.js';
import { errorMessage } from '../engine/errors.js';
import { ResourceManager } from '../engine/resources.js';
import { STDOUT_CLOSED_EXIT_STATUS } from '../engine/stdout_closed.js';
import { stopController } from '../engine/stop_signal.js';
import { Stream } from '../engine/stream.js';
import type { HttpServer } from '../http/server.js';
import { sendText } from '../listener/respond.js';
import { processRegistry } from '../plugins/process_registry.js';
import { assembleService, type Service } from '../service/assembly.js';
import { buildResources } from '../service/build_resources.js';
import { shutdownOnSignals } from '../service/shutdown.js';
import { type ConfigReload, ConfigWatcher, type RunningConfig } from './config_watcher.js';
import type { LoadedService } from './load_service.js';
import { guardAgainstStall } from './stall_guard.js';

/** `reload`: with `-w`, how to load the config again when its files change. */
export async function runNormalMode(loaded: LoadedService, reload?: ConfigReload): Promise<number> {
  const { config, source } = loaded;
  if (!config.stream) throw new Error('the config has no stream sections');
  let watcher: ConfigWatcher<Running> | undefined;
  const undelivered = { count: 0 };
  const service = assembleService({
    config,
    source,
    registry: loaded.registry ?? processRegistry(),
    baseDir: loaded.baseDir,
    sanitisedConfig: () => (watcher?.running?.loaded ?? loaded).sanitised,
    logLevel: loaded.logLevel,
    undelivered,
  });
  const { logger, http } = service;
  await service.ready(); // the tracer, before any component is built
  const first = await buildRunning(loaded, service);
  const currentStream = () => watcher?.running?.stream ?? first.stream;
  registerReady(http, currentStream);
  service.sectionStatus?.watch(() => currentStream().statuses());
  await service.listen();

  if (reload)
    watcher = await ConfigWatcher.start(first, reload, (next) => buildRunning(next, service), logger);
  const running = () => watcher?.running ?? first;
  const stopOnSignal = shutdownOnSignals(logger, loaded, (timeoutMs) =>
    watcher ? watcher.stop(timeoutMs) : first.stream.stop(timeoutMs),
  );
  const stopStallGuard = guardAgainstStall(
    logger,
    () => `${currentStream().transactionsInFlight} transactions are in flight`,
  );
  // Some components finish building on first use (an output's batch policy): a bad value there
  // is still the config's fault.
  await (watcher ? watcher.untilStopped() : first.run());
  stopStallGuard();
  stopOnSignal.dispose();
  const last = running();
  await closeResources(logger, last.resources);
  await service.close();
  if (stopOnSignal.stdoutClosed) return STDOUT_CLOSED_EXIT_STATUS;
  return exitStatusAfterStop(logger, last.stream.nackedAtStop + undelivered.count);
}

interface Running extends RunningConfig {
  readonly stream: Stream;
  readonly resources: ResourceManager;
}

/**
 * Resources and stream of one config on the service's logger, metrics and HTTP server; each config
 * gets its own resources and stop signal, and its endpoints are tracked so a replaced stream's
 * paths go with it.
 */
async function buildRunning(loaded: LoadedService, service: Service): Promise<Running> {
  const { config, source } = loaded;
  if (!config.stream) throw new Error('the config has no stream sections');
  const { http, logger } = service;
  const resources = new ResourceManager();
  const abort = stopController();
  service.stopController.signal.addEventListener('abort', () => abort.abort(), { once: true });
  const paths = new Set<string>();
  const endpoints = {
    register: (path: string, description: string, handler: EndpointHandler) => {
      paths.add(path);
      http.register(path, description, handler);
    },
  };
  const env: EngineEnv = {
    ...service.env,
    resources,
    endpoints,
    signal: abort.signal,
    baseDir: loaded.baseDir,
  };
  await inSource(source, () => buildResources(config, new ComponentBuilder(env), resources));
  for (const file of loaded.resourceFiles)
    await inSource(file.source, () => buildResources(file.config, new ComponentBuilder(env), resources));
  const streamConfig = config.stream;
  const stream = await inSource(source, () =>
    Stream.build(streamConfig, new ComponentBuilder(env), logger, abort),
  );
  return {
    loaded,
    stream,
    resources,
    run: () => inSource(source, () => stream.run()),
    async stop(timeoutMs) {
      await stream.stop(timeoutMs);
      await closeResources(logger, resources);
      for (const path of paths) http.unregister(path);
    },
  };
}

async function closeResources(logger: Logger, resources: ResourceManager): Promise<void> {
  await resources.closeAll().catch((err) => logger.warn(`closing resources: ${errorMessage(err)}`));
}

/** As Benthos exits non-zero when its stream does not close cleanly within shutdown_timeout. */
function exitStatusAfterStop(logger: Logger, nacked: number): number {
  if (nacked === 0) return 0;
  logger.error(
    `${nacked} transactions were still in flight (or waiting to be replayed) when the stream stopped: their messages were not delivered and were nacked to their source`,
  );
  return 1;
}

function registerReady(http: HttpServer, current: () => Stream): void {
  http.register(
    '/ready',
    'Responds 200 when the input and output are connected, 503 otherwise.',
    (_req, res) => {
      const stream = current();
      if (stream.isReady()) return sendText(res, 200, 'OK');
      const down = stream
        .statuses()
        .filter((s) => !s.connected)
        .map((s) => `${s.path}${s.error ? ` (${s.error})` : ''}`);
      const what = stream.active ? `not connected: ${down.join(', ')}` : 'stream terminated';
      sendText(res, 503, `${what}\n`);
    },
  );
}
