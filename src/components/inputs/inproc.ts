// The `inproc` input: reads what `inproc` outputs (in this or another stream) send to a named pipe.
import { defineRootComponent, field } from '../../config/spec.js';
import type { Input, InputReader, Transaction } from '../../engine/component.js';
import type { InprocBus } from '../../engine/inproc.js';

export class InprocReader implements InputReader {
  private readonly stop = new AbortController();

  constructor(
    private readonly bus: InprocBus,
    private readonly name: string,
  ) {}

  async connect(): Promise<void> {}

  read(): Promise<Transaction | null> {
    return this.bus.receive(this.name, this.stop.signal);
  }

  async close(): Promise<void> {
    this.stop.abort();
  }
}

export const spec = defineRootComponent({
  name: 'inproc',
  kind: 'input',
  status: 'stable',
  categories: ['Utility'],
  summary: 'Receives messages sent by `inproc` outputs to the same pipe name, within this process.',
  description:
    'Streams of one process can be chained without a network hop. Delivery stays end-to-end: the sending output completes only when this input acknowledges.',
  root: field.string('', 'The pipe name.', { default: '', examples: ['orders'] }),
  examples: [
    {
      title: 'Consume a pipe fed by another stream',
      config: `input:
  inproc: enriched_orders
output:
  stdout: {}
`,
    },
  ],
  build: (name, ctx): Input => ctx.wrapReader(new InprocReader(ctx.inproc, name)),
});
