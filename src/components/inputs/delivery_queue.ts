// A hand-off between a push-style client (deliveries arrive as events) and the pull-style
// `InputReader.read()`: deliveries wait here until read (one at a time, or several at once for
// the engine's groups), and a lost connection wakes the reader.

export class DeliveryQueue<T> {
  // A moving head instead of Array.shift(), which copies the array once many deliveries wait.
  private items: T[] = [];
  private at = 0;
  private waiter: { resolve: (item: T | null) => void; reject: (err: Error) => void } | null = null;
  private failure: Error | null = null;
  private ended = false;

  /** Deliveries waiting to be read. */
  get size(): number {
    return this.items.length - this.at;
  }

  /** Hands a delivery to the waiting read, or keeps it for the next one. */
  push(item: T): void {
    const waiter = this.waiter;
    if (waiter) {
      this.waiter = null;
      waiter.resolve(item);
    } else this.items.push(item);
  }

  /** The connection is gone: buffered deliveries are dropped (the broker redelivers them) and reads fail with err. */
  fail(err: Error): void {
    if (this.failure || this.ended) return;
    this.failure = err;
    this.clear();
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.reject(err);
  }

  /** Closed on purpose: pending and later reads resolve null. */
  end(): void {
    this.ended = true;
    this.clear();
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.resolve(null);
  }

  /** The next delivery; null once ended; rejects once failed. One read at a time (the engine serialises reads). */
  next(): Promise<T | null> {
    const item = this.take();
    if (item !== undefined) return Promise.resolve(item);
    if (this.failure) return Promise.reject(this.failure);
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }

  /** The next waiting delivery without a promise, if there is one. */
  take(): T | undefined {
    if (this.at >= this.items.length) return undefined;
    const item = this.items[this.at++] as T;
    if (this.at === this.items.length) this.clear();
    return item;
  }

  /** Up to `max` waiting deliveries, in order. */
  takeMany(max: number): T[] {
    const taken = this.items.slice(this.at, this.at + max);
    this.at += taken.length;
    if (this.at === this.items.length) this.clear();
    return taken;
  }

  private clear(): void {
    this.items = [];
    this.at = 0;
  }
}
