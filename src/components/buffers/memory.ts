// `memory` buffer: holds transactions in memory up to a byte limit and acknowledges the input as
// soon as they are stored. This decouples a fast or non-backpressured input from a slow pipeline at
// the cost of the delivery guarantee: messages in the buffer are lost if the process dies.
import { defineComponent, type FieldSpec, field } from '../../config/spec.js';
import { Batcher, type BatchPolicy, isNoopPolicy } from '../../engine/batching.js';
import type { Buffer, Transaction } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import { errorMessage } from '../../engine/errors.js';
import type { Batch } from '../../message/message.js';
import { type BatchingConfig, batchingField } from '../fields/batching.js';

interface Ready {
  batch: Batch;
  /** Called once the reader acknowledged the batch successfully. */
  delivered: () => void;
}

export class MemoryBuffer implements Buffer {
  /** Bytes stored and not yet acknowledged downstream. */
  private bytes = 0;
  private readonly ready: Ready[] = [];
  private readonly readers: Array<(txn: Transaction | null) => void> = [];
  private spaceWaiters: Array<() => void> = [];
  private ended = false;
  private closed = false;
  private readonly batcher: Batcher | null;

  constructor(
    private readonly limit: number,
    private readonly policy: BatchPolicy | null = null,
    private readonly onError: (err: Error) => void = () => {},
  ) {
    this.batcher = policy && !isNoopPolicy(policy) ? new Batcher(policy, (b) => this.enqueue(b)) : null;
  }

  /** Bytes currently held (stored, or read and awaiting acknowledgement). */
  get storedBytes(): number {
    return this.bytes;
  }

  async write(txn: Transaction): Promise<void> {
    if (this.closed || this.ended) throw new Error('buffer is closed');
    let size = 0;
    for (const msg of txn.batch) size += msg.byteSize();
    // Wait for room; a batch larger than the whole limit goes alone into an empty buffer.
    while (this.bytes > 0 && this.bytes + size > this.limit) {
      await new Promise<void>((resolve) => this.spaceWaiters.push(resolve));
      if (this.closed) throw new Error('buffer is closed');
    }
    this.bytes += size;
    const batch = txn.batch.map((msg) => msg.copy());
    const release = () => this.release(size);
    if (this.batcher) {
      this.batcher.add(batch).then(release, (err: Error) => {
        this.onError(new Error(`memory buffer dropped a batch: ${errorMessage(err)}`));
        release();
      });
    } else {
      void this.enqueue(batch).then(release);
    }
    // Stored: from here on the buffer, not the source, is responsible for these messages.
    await txn.ack(null);
  }

  read(): Promise<Transaction | null> {
    const next = this.ready.shift();
    if (next) return Promise.resolve(this.transaction(next));
    if (this.closed || this.drained()) return Promise.resolve(null);
    return new Promise((resolve) => this.readers.push(resolve));
  }

  endOfInput(): void {
    if (this.ended) return;
    this.ended = true;
    this.batcher?.flush().catch(() => undefined);
    this.settleIdleReaders();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.ready.length = 0;
    for (const reader of this.readers.splice(0)) reader(null);
    for (const wake of this.spaceWaiters.splice(0)) wake();
    // Stops the batcher's period timer; whatever it flushes is discarded by enqueue().
    this.batcher?.flush().catch(() => undefined);
    await Promise.allSettled((this.policy?.processors ?? []).map((p) => p.close()));
  }

  private drained(): boolean {
    return this.ended && this.bytes === 0 && this.ready.length === 0 && !this.batcher?.hasPending();
  }

  /** Makes a batch readable; resolves once a reader acknowledged it successfully. */
  private enqueue(batch: Batch): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((delivered) => this.offer({ batch, delivered }, false));
  }

  private offer(item: Ready, front: boolean): void {
    if (this.closed) return;
    const reader = this.readers.shift();
    if (reader) reader(this.transaction(item));
    else if (front) this.ready.unshift(item);
    else this.ready.push(item);
  }

  private transaction(item: Ready): Transaction {
    let settled = false;
    return {
      batch: item.batch,
      ack: async (err) => {
        if (settled) return;
        settled = true;
        // A failed batch goes back to the front to be read again, as the reference does.
        if (err) this.offer(item, true);
        else item.delivered();
      },
    };
  }

  private release(size: number): void {
    this.bytes -= size;
    const waiters = this.spaceWaiters;
    this.spaceWaiters = [];
    for (const wake of waiters) wake();
    this.settleIdleReaders();
  }

  private settleIdleReaders(): void {
    if (!this.drained()) return;
    for (const reader of this.readers.splice(0)) reader(null);
  }
}

/** Builds the engine's BatchPolicy from `batch_policy`; null when batching is disabled. */
async function buildPolicy(config: BatchPolicyFieldConfig, ctx: BuildContext): Promise<BatchPolicy | null> {
  if (!config.enabled) return null;
  return ctx.buildBatchPolicy(config);
}

const batching = batchingField();

function withoutExamples(spec: FieldSpec): FieldSpec {
  const { examples: _examples, ...rest } = spec;
  return rest;
}

type BatchPolicyFieldConfig = BatchingConfig & { enabled: boolean };

/** The shared batching object under another name, with an `enabled` switch and no examples. */
const batchPolicyField = {
  ...batching,
  name: 'batch_policy',
  description: 'Optionally group messages into batches as they leave the buffer.',
  children: [
    field.bool('enabled', 'Whether to group messages into batches as they leave the buffer.', {
      default: false,
    }),
    ...(batching.children ?? []).map(withoutExamples),
  ],
} as FieldSpec<'batch_policy', BatchPolicyFieldConfig>;

export const spec = defineComponent({
  name: 'memory',
  kind: 'buffer',
  status: 'stable',
  categories: ['Utility'],
  summary:
    'Stores messages in memory and acknowledges them to the input as soon as they are stored. On shutdown nekton makes a best attempt to process what is left.',
  description: `Use it in front of inputs that cannot take back pressure gracefully, where delivery guarantees matter less than never stalling the source.

**Delivery guarantee:** weaker than without a buffer. The input is told a message was delivered once it is in this buffer, so messages still in memory are lost if the process dies or shutdown times out, and a failed write downstream can no longer make the source redeliver (the buffer retries it instead).

When the stored messages reach \`limit\` bytes, writing blocks and the input is slowed down (back pressure). The count is the size of message contents only, so real memory use is higher: set the limit well below the memory available. A single batch larger than the limit is accepted once the buffer is empty.

Messages can be grouped into batches as they leave the buffer with \`batch_policy\`.`,
  fields: [
    field.int('limit', 'The most bytes of message content to hold before blocking the input.', {
      default: 524288000,
    }),
    batchPolicyField,
  ],
  examples: [
    {
      title: 'Absorb bursts, flushing batches of up to 100 every second',
      config: `input:
  generate:
    count: 1000
    interval: ''
    mapping: 'root = counter()'
buffer:
  memory:
    limit: 10000000
    batch_policy:
      enabled: true
      count: 100
      period: 1s
output:
  drop: {}
`,
    },
  ],
  build: async (config, ctx): Promise<Buffer> => {
    const policy = await buildPolicy(config.batch_policy, ctx);
    return new MemoryBuffer(config.limit, policy, (err) => ctx.logger.error(err.message));
  },
});
