// A counting semaphore whose uncontended acquire costs no promise.

export class Semaphore {
  private available: number;
  private readonly waiters: Array<() => void> = [];

  constructor(readonly size: number) {
    this.available = size;
  }

  /** Takes a slot now if one is free. */
  tryAcquire(): boolean {
    if (this.available > 0) {
      this.available--;
      return true;
    }
    return false;
  }

  acquire(): Promise<void> | undefined {
    if (this.tryAcquire()) return undefined;
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.available++;
  }

  /** Slots currently taken. */
  inUse(): number {
    return this.size - this.available;
  }
}
