// The `file` input: reads files (paths and globs) one after another through a scanner.
import { createReadStream } from 'node:fs';
import { stat, unlink } from 'node:fs/promises';
import { filesOfPattern } from '../../config/path_patterns.js';
import { defineComponent, field } from '../../config/spec.js';
import type { GroupAckFn, Input, InputReader, Transaction } from '../../engine/component.js';
import type { Batch } from '../../message/message.js';
import type { Scanner } from '../scanners/scanner.js';
import { ScannedSource } from './scanned_source.js';
import { scannerFields, scannerResolver } from './scanner_fields.js';

/** Paths as given, globs expanded; a missing plain path is skipped on open. */
export async function expandPaths(patterns: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const pattern of patterns) out.push(...(await filesOfPattern(pattern)));
  return out;
}

function isMissingFile(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function rfc3339(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

export class FileReader implements InputReader {
  private readonly pending: string[];
  private current: ScannedSource | null = null;
  private closed = false;

  constructor(
    paths: readonly string[],
    private readonly scannerFor: (path: string) => Promise<Scanner>,
    private readonly deleteOnFinish: boolean,
  ) {
    this.pending = [...paths];
  }

  async connect(): Promise<void> {}

  async read(): Promise<Transaction | null> {
    while (!this.closed) {
      if (!this.current) {
        const path = this.pending[0];
        if (path === undefined) return null;
        try {
          this.current = await this.open(path);
        } catch (err) {
          // Retrying cannot make a missing file appear (a glob would not have listed it, as in
          // Benthos): report it once and go on with the next path. Other errors are retried.
          if (!isMissingFile(err)) throw err;
          this.pending.shift();
          throw new Error(`skipping ${path}: no such file`);
        }
        this.pending.shift();
      }
      const txn = await this.current.next();
      if (txn) return txn;
      this.current = null;
    }
    return null;
  }

  readBuffered(): Transaction | undefined {
    return this.closed ? undefined : this.current?.nextBuffered();
  }

  /** The messages left in the current chunk (each its own batch of one, as read() hands them out). */
  readBufferedGroup(max: number): { batches: Batch[]; ack: GroupAckFn } | undefined {
    return this.closed ? undefined : this.current?.bufferedGroup(max);
  }

  async close(): Promise<void> {
    this.closed = true;
    const current = this.current;
    this.current = null;
    await current?.close();
  }

  private async open(path: string): Promise<ScannedSource> {
    const info = await stat(path);
    const scanner = await this.scannerFor(path);
    const modTime = info.mtime;
    const modUnix = Math.floor(modTime.getTime() / 1000);
    const modText = rfc3339(modTime);
    const stream = createReadStream(path, { highWaterMark: 256 * 1024 });
    const deleteOnFinish = this.deleteOnFinish;
    const fileMeta = new Map<string, unknown>([
      ['path', path],
      ['mod_time_unix', modUnix],
      ['mod_time', modText],
    ]);
    return new ScannedSource(scanner(stream, { name: path }), {
      decorate(msg) {
        // Most scanners set no metadata: then every message of the file shares one map.
        if (msg.metadata().size === 0) {
          msg.shareMetadata(fileMeta);
          return;
        }
        msg.setMeta('path', path);
        msg.setMeta('mod_time_unix', modUnix);
        msg.setMeta('mod_time', modText);
      },
      async finished(err) {
        if (err === null && deleteOnFinish) await unlink(path);
      },
    });
  }
}

export const spec = defineComponent({
  name: 'file',
  kind: 'input',
  status: 'stable',
  categories: ['Local'],
  summary: 'Reads files, one after another, splitting their contents into messages with a scanner.',
  description:
    'Glob patterns (`*`, `**`, `?`, `[a-z]`, `{a,b}`) are expanded when the input is built; matches are read in sorted order. Each message carries the metadata `path`, `mod_time_unix` and `mod_time` (RFC 3339). The input ends once every file is read.',
  fields: [
    field.array(
      field.string('paths', 'Files to read, as paths or glob patterns.', {
        examples: [['./data/*.ndjson', './archive/**/*.log']],
      }),
    ),
    ...scannerFields(),
    field.bool('delete_on_finish', 'Delete each file once all of its messages were delivered.', {
      default: false,
      advanced: true,
    }),
    field.bool('auto_replay_nacks', 'Re-deliver nacked messages inside nekton instead of failing them.', {
      default: true,
    }),
  ],
  examples: [
    {
      title: 'Every JSON-lines file of a directory tree',
      config: `input:
  file:
    paths: [ ./data/**/*.ndjson ]
    scanner:
      lines: {}
pipeline:
  processors:
    - mapping: 'root = this.merge({"source": @path})'
output:
  stdout: {}
`,
    },
  ],
  async build(config, ctx): Promise<Input> {
    const paths = await expandPaths(config.paths);
    const scannerFor = await scannerResolver(config, ctx, `${ctx.path}.file`);
    const reader = new FileReader(paths, scannerFor, config.delete_on_finish);
    return ctx.wrapReader(reader, { autoReplayNacks: config.auto_replay_nacks });
  },
});
