// The `stdin` input: the process's standard input split by a scanner; ends at end of input.
import type { Readable } from 'node:stream';
import { defineComponent, field } from '../../config/spec.js';
import type { GroupAckFn, Input, InputReader, Transaction } from '../../engine/component.js';
import type { Batch } from '../../message/message.js';
import type { Scanner } from '../scanners/scanner.js';
import { ScannedSource } from './scanned_source.js';
import { scannerFields, scannerResolver } from './scanner_fields.js';

export class StreamReader implements InputReader {
  private source: ScannedSource | null = null;
  private done = false;

  constructor(
    private readonly stream: Readable,
    private readonly scanner: Scanner,
    private readonly name = '',
  ) {}

  async connect(): Promise<void> {
    this.source ??= new ScannedSource(this.scanner(this.stream, { name: this.name }));
  }

  async read(): Promise<Transaction | null> {
    if (this.done || !this.source) return null;
    const txn = await this.source.next();
    if (!txn) this.done = true;
    return txn;
  }

  /** The next line already scanned, without a promise (the engine's fast path). */
  readBuffered(): Transaction | undefined {
    return this.done ? undefined : this.source?.nextBuffered();
  }

  /** The lines left in the scanned chunk, as one group (see InputReader.readBufferedGroup). */
  readBufferedGroup(max: number): { batches: Batch[]; ack: GroupAckFn } | undefined {
    return this.done ? undefined : this.source?.bufferedGroup(max);
  }

  async close(): Promise<void> {
    this.done = true;
    // Ends a pending read: the scanner's for-await sees the stream finish. Never destroy the
    // process's stdin itself, only stop listening.
    if (this.stream === process.stdin) this.stream.pause();
    else this.stream.destroy();
    this.stream.push?.(null);
  }
}

export const spec = defineComponent({
  name: 'stdin',
  kind: 'input',
  status: 'stable',
  categories: ['Local'],
  summary: 'Reads messages from standard input, one per line by default.',
  description:
    'The input ends when standard input closes, which shuts the stream down once everything is delivered.',
  fields: [
    ...scannerFields(),
    field.bool('auto_replay_nacks', 'Re-deliver nacked messages inside nekton instead of failing them.', {
      default: true,
    }),
  ],
  examples: [
    {
      title: 'Uppercase every line',
      config: `input:
  stdin: {}
pipeline:
  processors:
    - mapping: 'root = content().uppercase()'
output:
  stdout: {}
`,
    },
  ],
  async build(config, ctx): Promise<Input> {
    const scannerFor = await scannerResolver(config, ctx, `${ctx.path}.stdin`);
    const reader = new StreamReader(process.stdin, await scannerFor(''));
    return ctx.wrapReader(reader, { autoReplayNacks: config.auto_replay_nacks });
  },
});
