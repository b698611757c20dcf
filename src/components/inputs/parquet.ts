// The `parquet` input: reads Parquet files one after another, a batch of `batch_count` rows at a
// time, each row a structured message.
import { readFile } from 'node:fs/promises';
import { defineComponent, field } from '../../config/spec.js';
import type { Input, InputReader, Transaction } from '../../engine/component.js';
import { loadParquetReader, parquetRowBatches } from '../../formats/parquet/read.js';
import { Message } from '../../message/message.js';
import { expandPaths } from './file.js';

class ParquetReader implements InputReader {
  private readonly pending: string[];
  private rows: AsyncGenerator<Record<string, unknown>[]> | null = null;
  private closed = false;

  constructor(
    paths: readonly string[],
    private readonly batchCount: number,
  ) {
    this.pending = [...paths];
  }

  async connect(): Promise<void> {
    await loadParquetReader();
  }

  async read(): Promise<Transaction | null> {
    while (!this.closed) {
      if (!this.rows) {
        const path = this.pending.shift();
        if (path === undefined) return null;
        this.rows = parquetRowBatches(await readFile(path), this.batchCount);
      }
      const next = await this.rows.next();
      if (next.done) {
        this.rows = null;
        continue;
      }
      if (next.value.length === 0) continue;
      return { batch: next.value.map((row) => Message.fromStructured(row)), ack: async () => {} };
    }
    return null;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.rows?.return(undefined);
  }
}

export const spec = defineComponent({
  name: 'parquet',
  kind: 'input',
  status: 'stable',
  categories: ['Local'],
  summary:
    'Reads and decodes [Parquet files](https://parquet.apache.org/docs/) into a stream of structured messages.',
  description: `Each file is read in turn (held in memory whole), and each of its rows becomes a structured message; the input ends after the last file. Values come out as \`parquet_decode\` gives them: byte arrays as bytes unless the column is \`UTF8\`, in which case they are strings. Convert bytes with Bloblang (\`root.foo = this.foo.string()\`) where text is wanted.`,
  fields: [
    field.array(
      field.string(
        'paths',
        'A list of file paths to read from. Each file will be read sequentially until the list is exhausted, at which point the input will close. Glob patterns are supported, including super globs (double star).',
        { examples: ['/tmp/foo.parquet', '/tmp/bar/*.parquet', '/tmp/data/**/*.parquet'] },
      ),
    ),
    field.int(
      'batch_count',
      'Optionally process records in batches. This can help to speed up the consumption of exceptionally large files. When the end of the file is reached the remaining records are processed as a (potentially smaller) batch.',
      { default: 1, advanced: true },
    ),
    field.bool(
      'auto_replay_nacks',
      'Whether messages that are rejected (nacked) at the output level should be automatically replayed indefinitely, eventually resulting in back pressure if the cause of the rejections is persistent. If set to `false` these messages will instead be deleted. Disabling auto replays can greatly improve memory efficiency of high throughput streams as the original shape of the data can be discarded immediately upon consumption and mutation.',
      { default: true },
    ),
  ],
  lint: (config) => (config.batch_count < 1 ? [`batch_size must be >0, got ${config.batch_count}`] : []),
  examples: [
    {
      title: 'Parquet rows as JSON lines',
      config: `input:
  parquet:
    paths: [ ./data/*.parquet ]
    batch_count: 100
output:
  stdout: {}
`,
    },
  ],
  async build(config, ctx): Promise<Input> {
    const paths = await expandPaths(config.paths);
    if (paths.length === 0) ctx.logger.warn(`Paths ${JSON.stringify(config.paths)} did not match any files`);
    return ctx.wrapReader(new ParquetReader(paths, config.batch_count), {
      autoReplayNacks: config.auto_replay_nacks,
    });
  },
});
