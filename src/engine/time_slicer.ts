// Long synchronous work (checking or building a big config) gives the event loop a turn every
// few milliseconds, so `/ping` and other requests are answered while it runs.
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Default slice: short enough that a loaded machine still answers well within ~100 ms. */
const SLICE_MS = 20;

export class TimeSlicer {
  private sliceStart = performance.now();

  constructor(private readonly sliceMs = SLICE_MS) {}

  /** Yields to the event loop when the current slice has used up its time; otherwise returns at once. */
  async pause(): Promise<void> {
    if (performance.now() - this.sliceStart < this.sliceMs) return;
    await nextTurn();
    this.sliceStart = performance.now();
  }
}
