// Signal handling shared by normal mode and streams mode: shutdown_delay, then shutdown_timeout.
import type { Logger } from 'pino';
import { onStdoutClosed } from '../engine/stdout_closed.js';
import { timerDelay } from '../engine/timer_delay.js';

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
