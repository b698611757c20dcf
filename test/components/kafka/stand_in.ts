// Stand-ins for the parts of @platformatic/kafka the kafka_franz reader and writer use, so their
// delivery logic (commit points, replays, reconnects, produce requests) is tested without a broker.
import type { KafkaModule } from '../../../src/components/kafka/client.js';

export interface FakeRecord {
  key: Buffer | undefined;
  value: Buffer | undefined;
  headers: Map<Buffer, Buffer>;
  topic: string;
  partition: number;
  offset: bigint;
  timestamp: bigint;
  metadata: Record<string, unknown>;
  commit(): Promise<void>;
  toJSON(): unknown;
}

/** A consumer's message stream fed by the test: push() records, fail() or end() it. */
export class FakeStream {
  private readonly queue: Array<IteratorResult<FakeRecord> | Error> = [];
  private waiting: { resolve: (r: IteratorResult<FakeRecord>) => void; reject: (e: Error) => void } | null =
    null;
  closed = false;

  constructor(private readonly commits: string[]) {}

  push(topic: string, partition: number, offset: number, value: string | null = `m${offset}`): void {
    const record: FakeRecord = {
      key: Buffer.from(`k${offset}`),
      value: value === null ? undefined : Buffer.from(value),
      headers: new Map([[Buffer.from('h'), Buffer.from(`v${offset}`)]]),
      topic,
      partition,
      offset: BigInt(offset),
      timestamp: 1_700_000_000_000n + BigInt(offset),
      metadata: {},
      // The library commits the offset after the record's ("the next one to read").
      commit: async () => {
        this.commits.push(`${topic}/${partition}@${offset + 1}`);
      },
      toJSON: () => ({}),
    };
    this.deliver({ done: false, value: record });
  }

  fail(err: Error): void {
    this.deliver(err);
  }

  end(): void {
    this.deliver({ done: true, value: undefined });
  }

  on(): this {
    return this;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.end();
  }

  [Symbol.asyncIterator](): AsyncIterator<FakeRecord> {
    return {
      next: () =>
        new Promise<IteratorResult<FakeRecord>>((resolve, reject) => {
          const item = this.queue.shift();
          if (item instanceof Error) reject(item);
          else if (item) resolve(item);
          else this.waiting = { resolve, reject };
        }),
    };
  }

  private deliver(item: IteratorResult<FakeRecord> | Error): void {
    const waiting = this.waiting;
    this.waiting = null;
    if (!waiting) this.queue.push(item);
    else if (item instanceof Error) waiting.reject(item);
    else waiting.resolve(item);
  }
}

export interface FakeKafka {
  module: KafkaModule;
  /** Options each Consumer / Producer was constructed with. */
  consumerOptions: Record<string, unknown>[];
  consumeOptions: Record<string, unknown>[];
  producerOptions: Record<string, unknown>[];
  /** One stream per consume() call, the latest last. */
  streams: FakeStream[];
  /** `topic/partition@offset` of every commit, in order. */
  commits: string[];
  /** Every produce request. */
  sends: Array<{ messages: unknown[]; idempotent?: boolean }>;
  closedClients: number;
  /** What the next send does; resolves by default. */
  onSend: () => Promise<unknown>;
  /** What the next consume() or metadata() does before succeeding; resolves by default. */
  onConnect: () => Promise<void>;
}

export function fakeKafka(): FakeKafka {
  const fake: FakeKafka = {
    module: undefined as unknown as KafkaModule,
    consumerOptions: [],
    consumeOptions: [],
    producerOptions: [],
    streams: [],
    commits: [],
    sends: [],
    closedClients: 0,
    onSend: async () => undefined,
    onConnect: async () => undefined,
  };
  class Consumer {
    constructor(options: Record<string, unknown>) {
      fake.consumerOptions.push(options);
    }
    async consume(options: Record<string, unknown>): Promise<FakeStream> {
      fake.consumeOptions.push(options);
      await fake.onConnect();
      const stream = new FakeStream(fake.commits);
      fake.streams.push(stream);
      return stream;
    }
    async close(): Promise<void> {
      fake.closedClients++;
    }
  }
  class Producer {
    constructor(options: Record<string, unknown>) {
      fake.producerOptions.push(options);
    }
    async metadata(): Promise<void> {
      await fake.onConnect();
    }
    async send(request: { messages: unknown[]; idempotent?: boolean }): Promise<unknown> {
      fake.sends.push(request);
      return fake.onSend();
    }
    async close(): Promise<void> {
      fake.closedClients++;
    }
  }
  fake.module = { Consumer, Producer } as unknown as KafkaModule;
  return fake;
}

/** Lets pending promise callbacks run (no timers, no wall clock). */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setImmediate(r));
}
