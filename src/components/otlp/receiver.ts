// What both OTLP inputs share: a decoded request becomes one transaction (one message per span,
// log record or metric), and the request is answered once that transaction is acknowledged.
import type { InputReader, Transaction } from '../../engine/component.js';
import { Message } from '../../message/message.js';
import { DeliveryQueue } from '../inputs/delivery_queue.js';
import {
  decodeToMessage,
  encodeMessage,
  rawObject,
  type Signal,
  splitRequest,
  toRedpandaJson,
} from './codec.js';

/** Raised to the request when the input closed before its messages were delivered. */
export class ClosingError extends Error {}

export class OtlpReceiver {
  private readonly queue = new DeliveryQueue<Transaction>();
  private readonly pending = new Set<(err: Error | null) => void>();
  private closed = false;

  constructor(private readonly encoding: 'json' | 'protobuf') {}

  /**
   * Decodes the request body (throws a SyntaxError-like Error on a malformed body) and resolves
   * once its messages are delivered (null) or failed (an Error). An empty request resolves at once.
   */
  submit(signal: Signal, body: Uint8Array, json: boolean, timeoutMs: number): Promise<Error | null> {
    const message = decodeToMessage(signal, body, json);
    if (this.closed) return Promise.resolve(new ClosingError('input closing'));
    const asJson = this.encoding === 'json';
    const items = splitRequest(signal, asJson ? rawObject(signal, message) : message);
    if (items.length === 0) return Promise.resolve(null);
    const batch = items.map((item) => {
      const meta = new Map<string, unknown>([
        ['signal_type', signal],
        ['encoding', this.encoding],
      ]);
      return asJson
        ? Message.fromStructured(toRedpandaJson(signal, item), meta)
        : new Message(encodeMessage(signal, item), meta);
    });
    return new Promise<Error | null>((resolve) => {
      let done = false;
      let timer: NodeJS.Timeout | null = null;
      const settle = (err: Error | null) => {
        if (done) return;
        done = true;
        if (timer) clearTimeout(timer);
        this.pending.delete(settle);
        resolve(err);
      };
      if (timeoutMs > 0) {
        timer = setTimeout(() => settle(new Error('timed out waiting for delivery')), timeoutMs);
        timer.unref();
      }
      this.pending.add(settle);
      this.queue.push({
        batch,
        ack: async (err) => settle(err),
      });
    });
  }

  read(): Promise<Transaction | null> {
    return this.queue.next();
  }

  readBuffered(): Transaction | undefined {
    return this.queue.take();
  }

  /** Ends reads and answers every request still waiting with a ClosingError. */
  close(): void {
    this.closed = true;
    this.queue.end();
    for (const settle of [...this.pending]) settle(new ClosingError('input closing'));
  }
}

export type OtlpReader = InputReader;
