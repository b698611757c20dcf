// The one way a test waits for something that happens asynchronously: poll a condition until it
// returns a truthy value, with a bound so a broken component fails the test instead of hanging it.

/** What a condition may return while it is not yet met. */
type NotYet = false | null | undefined | 0 | '';

export interface WaitOptions {
  /** How long to keep polling before failing (a bound, not a measurement). Default 10 s. */
  timeoutMs?: number;
  /** Pause between polls. Default 25 ms. */
  intervalMs?: number;
  /** What is awaited, for the timeout error; a function is read only when the wait fails (say, to add logs). */
  message?: string | (() => string);
  /**
   * A thrown error fails the wait at once (for conditions that throw on purpose, say when a child
   * process exited or an assertion inside failed). By default an error counts as "not yet" and the
   * last one is reported if the wait times out (a server still starting refuses connections).
   */
  failFast?: boolean;
}

/** Polls condition() until it returns a truthy value and resolves with that value. */
export async function waitFor<T>(
  condition: () => T | Promise<T>,
  { timeoutMs = 10_000, intervalMs = 25, message = 'condition', failFast = false }: WaitOptions = {},
): Promise<Exclude<T, NotYet>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await condition();
      if (value) return value as Exclude<T, NotYet>;
    } catch (err) {
      if (failFast) throw err;
      lastError = err;
    }
    if (Date.now() > deadline) {
      const what = typeof message === 'function' ? message() : message;
      const cause = lastError === undefined ? '' : `: ${String(lastError)}`;
      throw new Error(`timed out waiting for ${what}${cause}`, { cause: lastError });
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
