// The changes a CDC reader has decoded but the engine has not read yet, shared by postgres_cdc and
// mysql_cdc. Unlike inputs/delivery_queue.ts, a failure does not drop what is queued (those changes
// are past the server's position and would be lost): they are read first, then reads fail; and a
// nacked change goes back to the front, before anything newer.
import { errorMessage, NotConnectedError } from '../../engine/errors.js';

export class ChangeQueue<T> {
  private items: T[] = [];
  private waiting: (() => void)[] = [];
  private failed: Error | null = null;

  /** `name` prefixes the error a failed read throws (`postgres_cdc: ...`). */
  constructor(private readonly name: string) {}

  get failure(): Error | null {
    return this.failed;
  }

  /** A new connection: nothing queued, no failure. */
  reset(): void {
    this.failed = null;
    this.items = [];
  }

  push(item: T): void {
    this.items.push(item);
    this.wakeUp();
  }

  /** A nacked change: read again before anything newer. */
  requeue(item: T): void {
    this.items.unshift(item);
    this.wakeUp();
  }

  /** The first failure wins; later ones (the same loss seen twice) are ignored. */
  fail(err: Error): void {
    if (this.failed) return;
    this.failed = err;
    this.wakeUp();
  }

  /** Wakes waiting reads (to see a close, a failure or a new change). */
  wakeUp(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const w of waiting) w();
  }

  /** How many changes are queued. */
  get size(): number {
    return this.items.length;
  }

  /** Up to `max` queued changes, oldest first, taken now (none waited for). */
  take(max: number): T[] {
    return this.items.splice(0, max);
  }

  /** The next change; null once `closed()`; throws NotConnectedError after a failure. */
  async next(closed: () => boolean): Promise<T | null> {
    for (;;) {
      if (closed()) return null;
      const next = this.items.shift();
      if (next !== undefined) return next;
      if (this.failed) {
        const reason = errorMessage(this.failed);
        throw new NotConnectedError(reason.startsWith(this.name) ? reason : `${this.name}: ${reason}`);
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }
}
