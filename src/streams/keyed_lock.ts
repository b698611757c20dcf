// Serialises async work per key: operations on one stream id run one after another, while
// operations on different ids never wait for each other. Idle keys hold no memory.

export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key);
    let release!: () => void;
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous ? previous.then(() => done) : done;
    this.tails.set(key, tail);
    if (previous) await previous;
    try {
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
