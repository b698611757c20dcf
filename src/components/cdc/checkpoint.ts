// In-order acknowledgement: positions are handed out in source order and the checkpoint only
// moves past a position once it and every earlier one were acknowledged, so a crash resumes from
// the oldest change not yet delivered (at-least-once, never a gap).

export class OrderedCheckpoint<P> {
  private readonly items: { position: P | undefined; done: boolean }[] = [];
  private head = 0;
  private waiters: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  /** How many positions are tracked and not yet passed by the checkpoint. */
  get pending(): number {
    return this.items.length - this.head;
  }

  /** Whether another position may be tracked now (fewer than `limit` outstanding). */
  hasRoom(): boolean {
    return this.limit <= 0 || this.items.length - this.head < this.limit;
  }

  /** Waits until fewer than `limit` positions are outstanding (`checkpoint_limit`). */
  async room(signal?: { closed: boolean }): Promise<void> {
    while (this.limit > 0 && this.pending >= this.limit && !signal?.closed) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Tracks a position; `position` undefined marks a change that moves no checkpoint on its own. */
  track(position: P | undefined, done = false): { resolve: () => P | undefined } {
    const item = { position, done };
    this.items.push(item);
    return {
      resolve: () => {
        item.done = true;
        return this.advance();
      },
    };
  }

  /** The newest position every earlier change was acknowledged for, if it moved. */
  private advance(): P | undefined {
    let latest: P | undefined;
    while (this.head < this.items.length && this.items[this.head]!.done) {
      const p = this.items[this.head]!.position;
      if (p !== undefined) latest = p;
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items.splice(0, this.head);
      this.head = 0;
    }
    if (this.waiters.length > 0) this.release();
    return latest;
  }

  /** Wakes every waiter (at close). */
  release(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}
