// Long synchronous work (checking or building a big config, a stream whose input always has a
// message ready) gives the event loop a turn every few milliseconds, so `/ping`, other requests
// and signals are answered while it runs.
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Default slice: short enough that a loaded machine still answers well within ~100 ms. */
const SLICE_MS = 20;
/** How many tick() calls go by between two looks at the clock: a hot loop pays a counter. */
const TICKS_PER_CHECK = 64;

export class TimeSlicer {
  private sliceStart = performance.now();
  private ticks = 0;

  constructor(private readonly sliceMs = SLICE_MS) {}

  /** Yields to the event loop when the current slice has used up its time; otherwise returns at once. */
  async pause(): Promise<void> {
    if (this.due()) await this.yieldTurn();
  }

  /**
   * For a hot loop that runs per message: a promise to await when a turn is due, looked for every
   * TICKS_PER_CHECK calls; otherwise undefined, with no promise made.
   */
  tick(): Promise<void> | undefined {
    if (++this.ticks < TICKS_PER_CHECK) return undefined;
    this.ticks = 0;
    return this.due() ? this.yieldTurn() : undefined;
  }

  /** Whether the current slice has used up its time (for loops that check without a promise). */
  due(): boolean {
    return performance.now() - this.sliceStart >= this.sliceMs;
  }

  /** Gives the event loop a turn (I/O, timers, signals) and starts a new slice. */
  async yieldTurn(): Promise<void> {
    await nextTurn();
    this.sliceStart = performance.now();
  }
}
