// `sqlite` buffer: stores each batch as a row of an SQLite file and acknowledges the input once
// the row is committed; a row is deleted only when its messages were delivered downstream, so a
// process killed at any point redelivers, on its next start, everything it had not delivered.
import { defineComponent, field } from '../../config/spec.js';
import type { Buffer, Processor, Transaction } from '../../engine/component.js';
import type { BuildContext, ComponentConfig } from '../../engine/context.js';
import { runProcessors } from '../../engine/observed_processor.js';
import type { Batch } from '../../message/message.js';
import { openStore, type SqliteStore } from './sqlite_store.js';

interface Ready {
  batch: Batch;
  ack: (err: Error | null) => void;
}

async function applyProcessors(processors: readonly Processor[], batch: Batch): Promise<Batch[]> {
  if (processors.length === 0) return [batch];
  return runProcessors(processors, batch);
}

export class SqliteBuffer implements Buffer {
  /** Highest row id handed out from the file in order; rows after it are unread. */
  private cursor = 0;
  /** Rows read then nacked, read again before newer rows (the reference orders by requeue). */
  private readonly requeued: number[] = [];
  /** Rows read and not yet settled. */
  private readonly inFlight = new Set<number>();
  /** Batches a row's post-processors made, waiting for readers. */
  private readonly ready: Ready[] = [];
  private readonly readers: Array<(txn: Transaction | null) => void> = [];
  private ended = false;
  private closed = false;
  /** Reads that are running post-processors, so end of input must wait for them. */
  private loading = 0;

  constructor(
    private readonly store: SqliteStore,
    private readonly pre: readonly Processor[] = [],
    private readonly post: readonly Processor[] = [],
  ) {}

  async write(txn: Transaction): Promise<void> {
    if (this.closed) throw new Error('buffer is closed');
    let ids: number[];
    try {
      const batches = await applyProcessors(this.pre, txn.batch);
      if (this.closed) throw new Error('buffer is closed');
      ids = batches.length > 0 ? this.store.add(batches) : [];
    } catch (err) {
      // Not stored: the input keeps the responsibility and redelivers.
      await txn.ack(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    await txn.ack(null);
    if (ids.length > 0) this.pump();
  }

  read(): Promise<Transaction | null> {
    return new Promise((resolve) => {
      this.readers.push(resolve);
      this.pump();
    });
  }

  endOfInput(): void {
    this.ended = true;
    this.pump();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.ready.length = 0;
    for (const reader of this.readers.splice(0)) reader(null);
    this.store.close();
    await Promise.allSettled([...this.pre, ...this.post].map((p) => p.close()));
  }

  /** Hands ready batches to waiting readers, loading rows from the file as needed. */
  private pump(): void {
    if (this.closed) {
      for (const reader of this.readers.splice(0)) reader(null);
      return;
    }
    while (this.readers.length > 0) {
      const item = this.ready.shift();
      if (item) {
        this.readers.shift()!(this.transaction(item));
        continue;
      }
      // Load one row per waiting reader beyond those already loading.
      if (this.loading >= this.readers.length) return;
      const row = this.nextRow();
      if (!row) {
        if (this.ended && this.loading === 0 && this.inFlight.size === 0) {
          for (const reader of this.readers.splice(0)) reader(null);
        }
        return;
      }
      this.loading++;
      this.inFlight.add(row.id);
      void this.load(row.id, row.batch);
    }
  }

  private nextRow(): { id: number; batch: Batch } | null {
    while (this.requeued.length > 0) {
      const id = this.requeued.shift()!;
      const row = this.store.get(id);
      if (row) return row;
    }
    const row = this.store.next(this.cursor);
    if (row) this.cursor = row.id;
    return row;
  }

  private async load(id: number, stored: Batch): Promise<void> {
    let batches: Batch[];
    try {
      batches = await applyProcessors(this.post, stored);
    } catch {
      // Post-processing failed: the row stays, to be tried again after the others.
      this.inFlight.delete(id);
      this.requeued.push(id);
      this.loading--;
      return;
    }
    this.loading--;
    if (this.closed) return;
    if (batches.length === 0) {
      // The post-processors dropped everything: nothing is left to deliver.
      this.settleRow(id, null);
    } else {
      let pending = batches.length;
      let settled = false;
      for (const batch of batches) {
        this.ready.push({
          batch,
          ack: (err) => {
            if (settled) return;
            pending--;
            if (err || pending === 0) {
              settled = true;
              this.settleRow(id, err);
            }
          },
        });
      }
    }
    this.pump();
  }

  private settleRow(id: number, err: Error | null): void {
    this.inFlight.delete(id);
    if (this.closed) return;
    if (err) this.requeued.push(id);
    else this.store.delete(id);
    this.pump();
  }

  private transaction(item: Ready): Transaction {
    let done = false;
    return {
      batch: item.batch,
      ack: async (err) => {
        if (done) return;
        done = true;
        item.ack(err);
      },
    };
  }
}

async function buildAll(configs: readonly (ComponentConfig | undefined)[] | undefined, ctx: BuildContext) {
  const out: Processor[] = [];
  for (const cc of configs ?? []) if (cc) out.push(await ctx.buildProcessor(cc));
  return out;
}

export const spec = defineComponent({
  name: 'sqlite',
  kind: 'buffer',
  status: 'stable',
  categories: ['Utility'],
  summary: 'Stores messages in an SQLite database and acknowledges them at the input level.',
  description: `Stored messages are then consumed as a stream from the database and deleted only once they are successfully sent at the output level. If the process is stopped, killed or crashes, it starts again from the oldest message that has not been delivered.

**Delivery guarantee:** at-least-once. A batch is acknowledged to the input only once it is committed to the database file, and removed from the file only once the output acknowledged it; a batch that fails downstream is read again before newer ones. The guarantee holds when the process is killed (\`kill -9\`): what was committed is in the file. Like the reference, writes are not synced to disk on every commit, so a power loss may lose the last commits; the file stays consistent.

**Batching:** messages batched at the input stay together in the buffer and come out as the same batch. One commit per batch makes batching at the input much faster; add a \`split\` processor to \`post_processors\` when the batches are not needed downstream.

SQLite runs as WebAssembly (no native module). One process at a time owns a database file; a second one fails to start while the first is alive.`,
  fields: [
    field.string(
      'path',
      'The path of the database file, which will be created if it does not already exist.',
      {
        examples: ['./buffer.db'],
      },
    ),
    field.array(
      field.component(
        'processor',
        'pre_processors',
        'An optional list of processors to apply to messages before they are stored within the buffer. These processors are useful for compressing, archiving or otherwise reducing the data in size before it is stored on disk.',
        { optional: true },
      ),
    ),
    field.array(
      field.component(
        'processor',
        'post_processors',
        'An optional list of processors to apply to messages after they are consumed from the buffer. These processors are useful for undoing any compression, archiving, etc that may have been done by your `pre_processors`.',
        { optional: true },
      ),
    ),
  ],
  examples: [
    {
      title: 'Batching for optimization',
      config: `input:
  generate:
    count: 1000
    interval: ''
    batch_size: 100
    mapping: 'root = {"n": counter()}'
buffer:
  sqlite:
    path: /tmp/nekton_buffer.db
    post_processors:
      - split: {}
output:
  drop: {}
`,
    },
  ],
  build: async (config, ctx): Promise<Buffer> => {
    const pre = await buildAll(config.pre_processors, ctx);
    const post = await buildAll(config.post_processors, ctx);
    return new SqliteBuffer(await openStore(config.path), pre, post);
  },
});
