// The `inproc` output: hands batches to the `inproc` input reading the same pipe name.
import { defineRootComponent, field } from '../../config/spec.js';
import type { Output, OutputWriter } from '../../engine/component.js';
import type { InprocBus } from '../../engine/inproc.js';
import { stopController } from '../../engine/stop_signal.js';
import type { Batch } from '../../message/message.js';

export class InprocWriter implements OutputWriter {
  /** Every write in flight waits on it (a listener each): stopController lifts Node's limit of 10. */
  private readonly stop = stopController();

  constructor(
    private readonly bus: InprocBus,
    private readonly name: string,
  ) {}

  async connect(): Promise<void> {}

  /** Resolves once the reading side acknowledged the batch; its nack becomes this write's error. */
  async write(batch: Batch): Promise<void> {
    // Copies, so the reader's processors cannot change what a retry of this batch would send.
    const copies = batch.map((m) => m.copy());
    const delivered = new Promise<void>((resolve, reject) => {
      const txn = {
        batch: copies,
        ack: async (err: Error | null) => (err ? reject(err) : resolve()),
      };
      this.bus.send(this.name, txn, this.stop.signal).catch(reject);
    });
    await delivered;
  }

  async close(): Promise<void> {
    this.stop.abort();
  }
}

export const spec = defineRootComponent({
  name: 'inproc',
  kind: 'output',
  status: 'stable',
  categories: ['Utility'],
  summary: 'Sends messages to the `inproc` input of the same pipe name, within this process.',
  description:
    'A write waits until a reader takes the batch and completes when that reader acknowledges it, so backpressure and nacks cross the pipe.',
  root: field.string('', 'The pipe name.', { default: '', examples: ['orders'] }),
  examples: [
    {
      title: 'Feed another stream of this process',
      config: `input:
  generate:
    mapping: 'root.id = uuid_v4()'
    interval: 1s
output:
  inproc: enriched_orders
`,
    },
  ],
  build: (name, ctx): Output => ctx.wrapWriter(new InprocWriter(ctx.inproc, name)),
});
