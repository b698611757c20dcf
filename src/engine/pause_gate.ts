// What a paused stream's input readers wait on. Pausing only stops new reads: a read already
// waiting on the input may still bring one transaction, and everything read before goes on to the
// output and is acknowledged as usual. Nothing is nacked because of a pause.

export class PauseGate {
  private closed: Promise<void> | null = null;
  private open: (() => void) | null = null;
  private pausedAt: number | null = null;

  get paused(): boolean {
    return this.closed !== null;
  }

  /** When the current pause began (ms since the epoch), or null when running. */
  get since(): number | null {
    return this.pausedAt;
  }

  /** Returns false when already paused (the first pause's time stands). */
  pause(): boolean {
    if (this.closed) return false;
    this.closed = new Promise((resolve) => (this.open = resolve));
    this.pausedAt = Date.now();
    return true;
  }

  /** Lets every waiting reader go; false when it was not paused. */
  resume(): boolean {
    if (!this.closed) return false;
    this.open?.();
    this.closed = null;
    this.open = null;
    this.pausedAt = null;
    return true;
  }

  /** Undefined when open (no await needed on the hot path), else what resolves on resume. */
  whenOpen(): Promise<void> | undefined {
    return this.closed ?? undefined;
  }
}
