// `nekton streams ...`: starts streams mode and runs until SIGINT/SIGTERM (spec §4.7, §7).

import { loadConfigFilePlugins } from '../api/plugin_loading.js';
import { errorMessage } from '../engine/errors.js';
import { STDOUT_CLOSED_EXIT_STATUS } from '../engine/stdout_closed.js';
import { shutdownOnSignals } from '../service/shutdown.js';
import { templatesRegistry } from '../templates/templates_registry.js';
import { type StreamsCommandOptions, startStreamsService } from './service.js';

export type { StreamsCommandOptions } from './service.js';

/**
 * Returns the process exit code: 0 after a signal-driven shutdown, 1 when startup failed, 141 when
 * a stream's `stdout` output found stdout closed by its reader.
 */
export async function runStreamsCommand(options: StreamsCommandOptions): Promise<number> {
  let service: Awaited<ReturnType<typeof startStreamsService>>;
  try {
    await loadConfigFilePlugins(options.observability);
    const registry = await templatesRegistry(options.templates ?? [], options.chilled);
    service = await startStreamsService(registry ? { ...options, registry } : options);
  } catch (err) {
    process.stderr.write(`${errorMessage(err)}\n`);
    return 1;
  }
  const { logger } = service;
  let stdoutClosed = false;
  await new Promise<void>((resolve) => {
    const signals = shutdownOnSignals(logger, service, async () => {
      try {
        await service.stop();
        logger.info('streams mode stopped');
      } finally {
        stdoutClosed = signals.stdoutClosed;
        signals.dispose();
        resolve();
      }
    });
  });
  return stdoutClosed ? STDOUT_CLOSED_EXIT_STATUS : 0;
}
