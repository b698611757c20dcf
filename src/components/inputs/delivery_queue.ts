// A hand-off between a push-style client (deliveries arrive as events) and the pull-style
// `InputReader.read()`: deliveries wait here until read, and a lost connection wakes the reader.

export class DeliveryQueue<T> {
  private readonly items: T[] = [];
  private waiter: { resolve: (item: T | null) => void; reject: (err: Error) => void } | null = null;
  private failure: Error | null = null;
  private ended = false;

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
    this.items.length = 0;
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.reject(err);
  }

  /** Closed on purpose: pending and later reads resolve null. */
  end(): void {
    this.ended = true;
    this.items.length = 0;
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.resolve(null);
  }

  /** The next delivery; null once ended; rejects once failed. One read at a time (the engine serialises reads). */
  next(): Promise<T | null> {
    const item = this.items.shift();
    if (item !== undefined) return Promise.resolve(item);
    if (this.failure) return Promise.reject(this.failure);
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }
}
