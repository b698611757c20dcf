// A counting semaphore whose uncontended acquire costs no promise.

export class Semaphore {
  private available: number;
  // A queue with a moving head: Array.shift() copies the whole array once thousands wait.
  private waiters: Array<() => void> = [];
  private head = 0;

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
    if (this.head < this.waiters.length) {
      const next = this.waiters[this.head] as () => void;
      this.waiters[this.head++] = undefined as unknown as () => void;
      if (this.head === this.waiters.length) {
        this.waiters = [];
        this.head = 0;
      } else if (this.head > 1024 && this.head * 2 > this.waiters.length) {
        this.waiters = this.waiters.slice(this.head);
        this.head = 0;
      }
      next();
    } else this.available++;
  }

  /** Slots currently taken. */
  inUse(): number {
    return this.size - this.available;
  }
}
