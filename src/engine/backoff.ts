// Exponential backoff, as Benthos's `backoff` fields describe it, and a sleep that an abort ends.
import { timerDelay } from './timer_delay.js';

export interface BackoffConfig {
  /** Milliseconds before the first retry. */
  initialMs: number;
  /** The longest wait between two attempts. */
  maxMs: number;
  /** Give up after this long in total; 0 = never. */
  maxElapsedMs: number;
  multiplier?: number;
}

export class Backoff {
  private current: number;
  private readonly started = Date.now();

  constructor(private readonly config: BackoffConfig) {
    this.current = config.initialMs;
  }

  /** Milliseconds to wait before the next attempt, or null when the elapsed budget is spent. */
  next(): number | null {
    if (this.config.maxElapsedMs > 0 && Date.now() - this.started >= this.config.maxElapsedMs) return null;
    const wait = this.current;
    this.current = Math.min(this.config.maxMs, this.current * (this.config.multiplier ?? 1.5));
    // Jitter of +-20% so many clients retrying at once spread out.
    return Math.round(wait * (0.8 + Math.random() * 0.4));
  }

  reset(): void {
    this.current = this.config.initialMs;
  }
}

/** Waits ms milliseconds; resolves false early (without throwing) when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, timerDelay(ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export interface RetryOptions {
  /** The error text of a failed attempt: thrown (with the error as its cause) once retries end. */
  describe: (err: unknown) => string;
  /** Errors no retry can mend (refused credentials, a missing table): thrown at once. */
  fatal?: (err: unknown) => boolean;
  /** Told before each wait (a debug log line). */
  onRetry?: (text: string, waitMs: number) => void;
}

/** Runs `run` until it succeeds, or until the backoff's elapsed budget is spent or an error is fatal. */
export async function withRetries<T>(
  config: BackoffConfig,
  run: () => Promise<T>,
  options: RetryOptions,
): Promise<T> {
  const backoff = new Backoff(config);
  for (;;) {
    try {
      return await run();
    } catch (err) {
      const text = options.describe(err);
      const wait = options.fatal?.(err) ? null : backoff.next();
      if (wait === null) throw new Error(text, { cause: err });
      options.onRetry?.(text, wait);
      await sleep(wait);
    }
  }
}
