// Normal mode: one stream from a config file, with the service-wide HTTP server, until the input
// is exhausted (exit 0) or a signal stops it (exit 0 when everything in flight was delivered,
// 1 when the stop had to nack messages to their source).
import type { Logger } from 'pino';
import { inSource } from '../config/config_source.js';
import { ComponentBuilder } from '../engine/builder.js';
import { STDOUT_CLOSED_EXIT_STATUS } from '../engine/stdout_closed.js';
import { Stream } from '../engine/stream.js';
import type { HttpServer } from '../http/server.js';
import { sendText } from '../listener/respond.js';
import { processRegistry } from '../plugins/process_registry.js';
import { assembleService } from '../service/assembly.js';
import { shutdownOnSignals } from '../service/shutdown.js';
import type { LoadedService } from './load_service.js';
import { guardAgainstStall } from './stall_guard.js';

export async function runNormalMode(loaded: LoadedService): Promise<number> {
  const { config, source } = loaded;
  if (!config.stream) throw new Error('the config has no stream sections');
  const undelivered = { count: 0 };
  const service = assembleService({
    config,
    source,
    registry: processRegistry(),
    baseDir: loaded.baseDir,
    sanitisedConfig: () => loaded.sanitised,
    logLevel: loaded.logLevel,
    undelivered,
  });
  const { logger, http } = service;
  await service.buildResources(config, source);
  for (const file of loaded.resourceFiles) await service.buildResources(file.config, file.source);
  const streamConfig = config.stream;
  const stream = await inSource(source, () =>
    Stream.build(streamConfig, new ComponentBuilder(service.env), logger, service.stopController),
  );
  registerReady(http, stream);
  await service.listen();

  const stopOnSignal = shutdownOnSignals(logger, loaded, (timeoutMs) => stream.stop(timeoutMs));
  const stopStallGuard = guardAgainstStall(
    logger,
    () => `${stream.transactionsInFlight} transactions are in flight`,
  );
  // Some components finish building on first use (an output's batch policy): a bad value there
  // is still the config's fault.
  await inSource(source, () => stream.run());
  stopStallGuard();
  stopOnSignal.dispose();
  await service.close();
  if (stopOnSignal.stdoutClosed) return STDOUT_CLOSED_EXIT_STATUS;
  return exitStatusAfterStop(logger, stream.nackedAtStop + undelivered.count);
}

/** As Benthos exits non-zero when its stream does not close cleanly within shutdown_timeout. */
function exitStatusAfterStop(logger: Logger, nacked: number): number {
  if (nacked === 0) return 0;
  logger.error(
    `${nacked} transactions were still in flight (or waiting to be replayed) when the stream stopped: their messages were not delivered and were nacked to their source`,
  );
  return 1;
}

function registerReady(http: HttpServer, stream: Stream): void {
  http.register(
    '/ready',
    'Responds 200 when the input and output are connected, 503 otherwise.',
    (_req, res) => {
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
