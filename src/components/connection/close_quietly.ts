// Closing a client connection at shutdown or after a failure: errors of a connection that is
// already gone are not worth reporting, and a peer that never confirms must not hold shutdown up.

/** Anything with a promise-returning close (amqplib, nats.js...); isClosed skips a closed one. */
export interface Closable {
  close(): Promise<unknown>;
  isClosed?(): boolean;
}

export interface QuietCloseOptions {
  /** How long to wait for the close to be confirmed (default 2 s). */
  waitMs?: number;
  /** Called when the wait ran out (e.g. to drop the socket instead). */
  onTimeout?: () => void;
}

const DEFAULT_WAIT_MS = 2000;

/** Closes `target`, ignoring its errors, waiting at most `waitMs` for it. */
export function closeQuietly(
  target: Closable | null | undefined,
  options: QuietCloseOptions = {},
): Promise<void> {
  if (!target || target.isClosed?.()) return Promise.resolve();
  return settleQuietly(() => target.close(), options);
}

/** The same for a callback API: `start(done)` begins the close and calls `done` once it is over. */
export function closeQuietlyWith(
  start: (done: () => void) => void,
  options: QuietCloseOptions = {},
): Promise<void> {
  return settleQuietly(() => new Promise<void>((resolve) => start(() => resolve())), options);
}

async function settleQuietly(close: () => Promise<unknown>, options: QuietCloseOptions): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const closing = close();
    // Once the wait runs out nobody awaits the close any more: its failure must not go unhandled.
    closing.catch(() => undefined);
    await Promise.race([
      closing,
      new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          options.onTimeout?.();
          resolve();
        }, options.waitMs ?? DEFAULT_WAIT_MS);
      }),
    ]);
  } catch {
    // already closed or broken: nothing left to release
  } finally {
    clearTimeout(timer);
  }
}
