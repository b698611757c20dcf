// Normal mode with nothing left that could wake it (no HTTP server, no timer, no socket) while
// its stream still waits for acks: Node would exit with status 0 and the user would believe every
// message was delivered. That state is a bug in nekton; say so and exit non-zero instead.
import type { Logger } from 'pino';

/** The exit status of a stream that stalled (EX_SOFTWARE: an internal error). */
export const STALLED_EXIT_STATUS = 70;

/** Watches for the event loop running dry while `describe` still reports unfinished work. */
export function guardAgainstStall(logger: Logger, describe: () => string): () => void {
  const onEmptyLoop = () => {
    logger.error(
      `the stream stalled: ${describe()}, and nothing is left that could finish it. This is a bug in nekton; please report it with the config. Exiting with status ${STALLED_EXIT_STATUS}; unacknowledged messages stay at their source.`,
    );
    process.exitCode = STALLED_EXIT_STATUS;
  };
  process.once('beforeExit', onEmptyLoop);
  return () => process.off('beforeExit', onEmptyLoop);
}
