// Node's timers take at most 2^31-1 ms (~24.8 days); a longer delay (a `?timeout=1000h`, a
// `period: 1000h`) is replaced by 1 ms with a TimeoutOverflowWarning, turning "wait very long"
// into "do it now". Every delay that comes from a user goes through here.

export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/** `ms` as a timer can wait it: never negative, at most ~24.8 days. */
export function timerDelay(ms: number): number {
  return Math.min(MAX_TIMER_DELAY_MS, Math.max(0, ms));
}
