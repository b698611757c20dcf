// Long synchronous work (checking or building a big config, a stream whose input always has a
// message ready) gives the event loop a turn every few milliseconds, so `/ping`, other requests
// and signals are answered while it runs.
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Default slice: short enough that a loaded machine still answers well within ~100 ms. */
const SLICE_MS = 20;

export class TimeSlicer {
  private sliceStart = performance.now();

  constructor(private readonly sliceMs = SLICE_MS) {}

  /** Yields to the event loop when the current slice has used up its time; otherwise returns at once. */
  async pause(): Promise<void> {
    if (this.due()) await this.yieldTurn();
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
