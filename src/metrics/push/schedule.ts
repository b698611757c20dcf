// Runs a push on an interval (never two at once) and once more at close, so the last counts leave.
import type { Logger } from 'pino';
import { errorMessage } from '../../engine/errors.js';

export interface PushSchedule {
  /** Stops the interval and runs the push a final time. */
  close(): Promise<void>;
}

export function schedulePush(
  what: string,
  intervalMs: number | undefined,
  push: () => Promise<void> | void,
  logger: Logger | undefined,
): PushSchedule {
  let running: Promise<void> | undefined;
  const run = (): Promise<void> => {
    if (running) return running;
    running = (async () => {
      try {
        await push();
      } catch (err) {
        logger?.warn(`${what}: ${errorMessage(err)}`);
      } finally {
        running = undefined;
      }
    })();
    return running;
  };
  // Unreferenced: a metrics push alone never keeps the process alive.
  const timer = intervalMs !== undefined && intervalMs > 0 ? setInterval(run, intervalMs).unref() : undefined;
  return {
    async close() {
      if (timer) clearInterval(timer);
      await running;
      await run();
    },
  };
}
