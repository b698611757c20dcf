// Telling the stream that an input's source is exhausted while acks are outstanding, through the
// inputs that wrap or combine others (processors, brokers, sequence, resources). Without it a
// partial output batch waits for messages that never come, and the stream never ends.

/**
 * No argument: the whole input is exhausted for good. `part`: one input of a sequence is, and the
 * next starts only once its acks settle, so the stream flushes every write until `resumed` (the
 * next part started: batches may fill again).
 */
export type ExhaustedListener = (event?: 'part' | 'resumed') => void;

/** The listeners of one composite input. */
export class Exhaustion {
  private listeners: ExhaustedListener[] = [];
  private final = false;

  /** Subscribes; a listener added after the final signal hears it at once. */
  add(listener: ExhaustedListener): void {
    if (this.final) listener();
    else this.listeners.push(listener);
  }

  /** The whole input is exhausted: every listener hears it once, and later ones at once. */
  fire(): void {
    if (this.final) return;
    this.final = true;
    for (const listener of this.listeners.splice(0)) listener();
  }

  /** A part's end or the next part's start: listeners stay subscribed. */
  signal(event: 'part' | 'resumed'): void {
    if (this.final) return;
    for (const listener of this.listeners) listener(event);
  }
}
