// Slots that bound in-flight work (a counting semaphore, with weights) and run waiting jobs
// strictly in the order they asked: a job is run synchronously inside release(), so nothing that
// asks later can overtake it (a promise resolved there would resume a microtask later, after a
// newcomer had taken the free slots). An uncontended take costs no promise.

interface Waiting {
  weight: number;
  run: () => void;
  resolve: () => void;
}

export class OrderedSlots {
  private free: number;
  private queue: Waiting[] = [];
  private head = 0;

  constructor(readonly size: number) {
    this.free = size;
  }

  /** Takes `weight` slots now when they are free and no job waits. */
  tryTake(weight: number): boolean {
    const want = Math.min(weight, this.size);
    if (this.head === this.queue.length && this.free >= want) {
      this.free -= want;
      return true;
    }
    return false;
  }

  /** Queues `run` until `weight` slots are free; resolves once it ran. */
  whenFree(weight: number, run: () => void): Promise<void> {
    return new Promise((resolve) => {
      this.queue.push({ weight: Math.min(weight, this.size), run, resolve });
      this.drain();
    });
  }

  /** One slot: undefined when taken at once, else a promise resolved once it is held. */
  acquire(): Promise<void> | undefined {
    return this.tryTake(1) ? undefined : this.whenFree(1, noop);
  }

  /** Whether a job waits for slots. */
  hasWaiting(): boolean {
    return this.head < this.queue.length;
  }

  release(weight = 1): void {
    this.free += Math.min(weight, this.size);
    this.drain();
  }

  private drain(): void {
    while (this.head < this.queue.length) {
      const next = this.queue[this.head]!;
      if (next.weight > this.free) return;
      this.free -= next.weight;
      this.queue[this.head++] = undefined as unknown as Waiting;
      if (this.head === this.queue.length) {
        this.queue = [];
        this.head = 0;
      } else if (this.head > 1024 && this.head * 2 > this.queue.length) {
        this.queue = this.queue.slice(this.head);
        this.head = 0;
      }
      next.run();
      next.resolve();
    }
  }
}

const noop = () => undefined;
