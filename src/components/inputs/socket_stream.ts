// What the socket inputs (socket, socket_server, websocket) share: a bounded hand-off from
// connections to read(), and the loop that scans one connection's bytes into it.
import type { Transaction } from '../../engine/component.js';
import type { Message } from '../../message/message.js';
import type { ByteSource, Scanner } from '../scanners/scanner.js';

const NO_ACK = async () => undefined;

/**
 * Messages waiting to be read, at most `capacity`: a producer awaits push() while it is full, so
 * a connection stops being read (and TCP slows its sender) instead of memory growing.
 */
export class BoundedMessageQueue {
  private items: Message[] = [];
  private at = 0;
  private reader: ((msg: Message | null) => void) | null = null;
  private room: Array<() => void> = [];
  private ended = false;
  /** No more messages will come: reads drain what is queued, then get null. */
  private finished = false;

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.items.length - this.at;
  }

  /** Resolves once the messages are queued and there is room for more (false: the queue ended). */
  async push(messages: readonly Message[]): Promise<boolean> {
    for (const msg of messages) {
      if (this.ended) return false;
      const reader = this.reader;
      if (reader) {
        this.reader = null;
        reader(msg);
        continue;
      }
      this.items.push(msg);
    }
    while (this.size >= this.capacity && !this.ended) {
      await new Promise<void>((resolve) => this.room.push(resolve));
    }
    return !this.ended;
  }

  /** Queues without waiting; false (dropped) when full: for datagrams, which cannot be slowed. */
  offer(messages: readonly Message[]): boolean {
    if (this.ended || this.size + messages.length > this.capacity) return false;
    void this.push(messages);
    return true;
  }

  /** The next message as a transaction of one (acks go nowhere: a socket cannot be told); null once ended. */
  async next(): Promise<Transaction | null> {
    const msg =
      this.take() ??
      (this.ended || this.finished ? null : await new Promise<Message | null>((r) => (this.reader = r)));
    return msg ? { batch: [msg], ack: NO_ACK } : null;
  }

  /** The next queued transaction without a promise, if there is one. */
  nextBuffered(): Transaction | undefined {
    const msg = this.take();
    return msg ? { batch: [msg], ack: NO_ACK } : undefined;
  }

  /** The source is done: what is queued is still read, then reads get null. */
  finish(): void {
    this.finished = true;
    if (this.size === 0) {
      this.reader?.(null);
      this.reader = null;
    }
  }

  /** Closed: queued messages are dropped and reads get null. */
  end(): void {
    this.ended = true;
    this.items = [];
    this.at = 0;
    this.reader?.(null);
    this.reader = null;
    this.wakeProducers();
  }

  private take(): Message | undefined {
    if (this.at >= this.items.length) return undefined;
    const msg = this.items[this.at++] as Message;
    if (this.at > 1024 && this.at * 2 > this.items.length) {
      this.items = this.items.slice(this.at);
      this.at = 0;
    }
    if (this.size < this.capacity) this.wakeProducers();
    return msg;
  }

  private wakeProducers(): void {
    const waiting = this.room;
    if (waiting.length === 0) return;
    this.room = [];
    for (const wake of waiting) wake();
  }
}

/**
 * Scans one connection into the queue until it ends. Resolves with the error that ended it (a
 * reset, a message over the scanner's limit), or null at a clean end; never rejects.
 */
export async function pumpScanned(
  source: ByteSource,
  scanner: Scanner,
  queue: BoundedMessageQueue,
  decorate?: (msg: Message) => void,
): Promise<Error | null> {
  try {
    for await (const messages of scanner(source, {})) {
      if (decorate) for (const msg of messages) decorate(msg);
      if (!(await queue.push(messages))) return null;
    }
    return null;
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

/** A byte source fed by events (datagrams, websocket frames), holding at most `capacity` chunks. */
export class PushedBytes implements AsyncIterable<Uint8Array> {
  private chunks: Uint8Array[] = [];
  private waiting: ((chunk: Uint8Array | null) => void) | null = null;
  private ended = false;

  constructor(private readonly capacity: number) {}

  /** Adds a chunk; false (dropped) when `capacity` chunks already wait. */
  offer(chunk: Uint8Array): boolean {
    if (this.ended) return false;
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = null;
      waiting(chunk);
      return true;
    }
    if (this.chunks.length >= this.capacity) return false;
    this.chunks.push(chunk);
    return true;
  }

  get size(): number {
    return this.chunks.length;
  }

  end(): void {
    this.ended = true;
    this.waiting?.(null);
    this.waiting = null;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    for (;;) {
      const chunk =
        this.chunks.shift() ??
        (this.ended ? null : await new Promise<Uint8Array | null>((r) => (this.waiting = r)));
      if (chunk === null) return;
      yield chunk;
    }
  }
}
