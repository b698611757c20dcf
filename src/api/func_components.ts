// The input behind `addProducerFunc()` and the output behind `addConsumerFunc()`: components only
// a StreamBuilder's own registry holds, never the process's, so no config can name them.
import type { ComponentSpec } from '../config/spec.js';
import type { InputReader, OutputWriter, Transaction } from '../engine/component.js';
import type { ComponentConfig } from '../engine/context.js';
import { Message } from './message.js';

export const PRODUCER_FUNC = 'nekton_producer_func';
export const CONSUMER_FUNC = 'nekton_consumer_func';

/** Sends one message; resolves once it was delivered downstream, rejects when it was nacked. */
export interface ProducerFunc {
  (content: string | Uint8Array | object, metadata?: Record<string, unknown>): Promise<void>;
  /** Ends the input: `run()` resolves once everything sent so far has been delivered. */
  end(): void;
}

export type ConsumerFunc = (message: Message) => Promise<void> | void;

/** The queue between the producer function and the input the engine reads. */
export class ProducerQueue {
  private readonly queued: Transaction[] = [];
  private reader: ((txn: Transaction | null) => void) | undefined;
  private ended = false;

  readonly send: ProducerFunc = Object.assign(
    (content: string | Uint8Array | object, metadata?: Record<string, unknown>) =>
      new Promise<void>((resolve, reject) => {
        if (this.ended) throw new Error('the producer has ended: no more messages can be sent');
        const message = new Message(content, metadata);
        this.push({
          batch: [message.inner],
          ack: async (err) => (err ? reject(err) : resolve()),
        });
      }),
    { end: () => this.end() },
  );

  private push(txn: Transaction): void {
    const reader = this.reader;
    this.reader = undefined;
    if (reader) reader(txn);
    else this.queued.push(txn);
  }

  private end(): void {
    this.ended = true;
    const reader = this.reader;
    this.reader = undefined;
    reader?.(null);
  }

  read(): Promise<Transaction | null> {
    const next = this.queued.shift();
    if (next) return Promise.resolve(next);
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.reader = resolve;
    });
  }

  inputReader(): InputReader {
    return {
      connect: async () => {},
      read: () => this.read(),
      close: async () => this.end(),
    };
  }
}

export function producerSpec(queue: ProducerQueue): ComponentSpec {
  return {
    name: PRODUCER_FUNC,
    kind: 'input',
    status: 'stable',
    summary: 'Messages sent by the function addProducerFunc() returned.',
    fields: [],
    build: () => queue.inputReader(),
  };
}

export function consumerSpec(consume: ConsumerFunc): ComponentSpec {
  const writer: OutputWriter = {
    connect: async () => {},
    async write(batch) {
      for (const message of batch) await consume(Message.of(message));
    },
    close: async () => {},
  };
  return {
    name: CONSUMER_FUNC,
    kind: 'output',
    status: 'stable',
    summary: 'Each message handed to the function given to addConsumerFunc().',
    fields: [],
    build: () => writer,
  };
}

/** The normalised config of a function component at `root.input` or `root.output`. */
export function funcComponent(type: string, section: 'input' | 'output'): ComponentConfig {
  return { type, label: '', config: {}, processors: [], path: `root.${section}`, raw: { [type]: {} } };
}
