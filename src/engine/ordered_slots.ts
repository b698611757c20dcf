// Slots that bound in-flight work (a counting semaphore, with weights) and run waiting jobs
// strictly in the order they asked: a job is run synchronously inside release(), so nothing that
// asks later can overtake it (a promise resolved there would resume a microtask later, after a
// newcomer had taken the free slots). An uncontended take costs no promise. Optionally a second
// budget, of bytes, bounds the same jobs: a job waits until both are free; one larger than the
// whole byte budget takes all of it (it runs alone, never for ever waiting).

interface Waiting {
  weight: number;
  bytes: number;
  run: () => void;
  resolve: () => void;
}

export class OrderedSlots {
  private free: number;
  private freeBytes: number;
  private queue: Waiting[] = [];
  private head = 0;

  constructor(
    readonly size: number,
    /** The byte budget (Infinity: none). */
    readonly byteSize = Number.POSITIVE_INFINITY,
  ) {
    this.free = size;
    this.freeBytes = byteSize;
  }

  /** Takes `weight` slots (and `bytes`) now when they are free and no job waits. */
  tryTake(weight: number, bytes = 0): boolean {
    const want = Math.min(weight, this.size);
    const wantBytes = Math.min(bytes, this.byteSize);
    if (this.head === this.queue.length && this.free >= want && this.freeBytes >= wantBytes) {
      this.free -= want;
      this.freeBytes -= wantBytes;
      return true;
    }
    return false;
  }

  /** Queues `run` until `weight` slots (and `bytes`) are free; resolves once it ran. */
  whenFree(weight: number, run: () => void, bytes = 0): Promise<void> {
    return new Promise((resolve) => {
      this.queue.push({
        weight: Math.min(weight, this.size),
        bytes: Math.min(bytes, this.byteSize),
        run,
        resolve,
      });
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

  /** Gives back what a job took: the same `weight` and `bytes` it asked for. */
  release(weight = 1, bytes = 0): void {
    this.free += Math.min(weight, this.size);
    this.freeBytes += Math.min(bytes, this.byteSize);
    this.drain();
  }

  private drain(): void {
    while (this.head < this.queue.length) {
      const next = this.queue[this.head]!;
      if (next.weight > this.free || next.bytes > this.freeBytes) return;
      this.free -= next.weight;
      this.freeBytes -= next.bytes;
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
