// When the `generate` input emits: a fixed interval (a Go duration, or `@every <duration>`), a
// cron expression (seconds optional, `TZ=<zone>` prefix, @hourly-style descriptors), or as fast
// as possible (empty interval).
import { Cron } from 'croner';
import { parseDurationMs } from '../../config/duration.js';
import { errorMessage, FieldValueError } from '../../engine/errors.js';

export interface Schedule {
  /** Whether the first batch goes out at once (durations) or waits for the schedule (cron). */
  readonly firstIsFree: boolean;
  /** The first batch went out at `now` without waiting (when firstIsFree). */
  start(now: number): void;
  /** Milliseconds from now until the next tick; advances the schedule past that tick. */
  nextDelayMs(now: number): number;
}

/** A ticker: ticks at start + k*interval; ticks missed while the consumer was slow are dropped. */
class FixedInterval implements Schedule {
  private nextAt: number | null = null;

  constructor(
    private readonly intervalMs: number,
    readonly firstIsFree: boolean,
  ) {}

  nextDelayMs(now: number): number {
    if (this.nextAt === null) this.nextAt = now + this.intervalMs;
    const delay = Math.max(0, this.nextAt - now);
    this.nextAt += this.intervalMs;
    // Like Go's ticker, at most one missed tick is delivered late; the rest are skipped.
    if (this.nextAt < now) this.nextAt = now + this.intervalMs;
    return delay;
  }

  start(now: number): void {
    this.nextAt = now + this.intervalMs;
  }
}

class CronSchedule implements Schedule {
  readonly firstIsFree = false;
  private previous: Date | null = null;

  constructor(private readonly cron: Cron) {}

  start(): void {}

  nextDelayMs(now: number): number {
    // Each tick follows the previous scheduled time, so a slow consumer catches up at once.
    const next = this.cron.nextRun(this.previous ?? new Date(now));
    if (next === null) return Number.POSITIVE_INFINITY;
    this.previous = next;
    return Math.max(0, next.getTime() - now);
  }
}

const DESCRIPTOR_ALIASES: Record<string, string> = { '@midnight': '@daily' };

/** What lint says about an interval that reads as neither a duration nor a cron expression. */
export function scheduleProblems(interval: string): string[] {
  try {
    parseSchedule(interval);
    return [];
  } catch (err) {
    return [errorMessage(err)];
  }
}

/** null = no schedule (as fast as possible). Throws a FieldValueError when the interval reads as neither. */
export function parseSchedule(interval: string): Schedule | null {
  if (interval === '') return null;
  let durationError: string;
  try {
    const ms = parseDurationMs(interval);
    return ms > 0 ? new FixedInterval(ms, true) : null;
  } catch (err) {
    durationError = errorMessage(err);
  }
  try {
    return parseCron(interval);
  } catch (err) {
    throw new FieldValueError(
      'interval',
      `failed to parse interval as duration string: ${durationError}, or as cron expression: ${errorMessage(err)}`,
    );
  }
}

function parseCron(text: string): Schedule {
  let expression = text.trim();
  let timezone = 'UTC';
  const tz = /^TZ=(\S+)\s+/.exec(expression);
  if (tz) {
    timezone = tz[1]!;
    expression = expression.slice(tz[0].length);
  }
  if (expression.startsWith('@every ')) {
    const ms = parseDurationMs(expression.slice('@every '.length).trim());
    if (ms <= 0) throw new Error(`invalid @every duration: ${expression}`);
    return new FixedInterval(ms, false);
  }
  expression = DESCRIPTOR_ALIASES[expression] ?? expression;
  return new CronSchedule(new Cron(expression, { timezone, paused: true }));
}
