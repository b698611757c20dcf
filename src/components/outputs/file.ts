// The `file` output: appends messages to files whose path may vary per message.
import { type FileHandle, mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Interpolation } from '../../bloblang/index.js';
import { defineComponent, field } from '../../config/spec.js';
import type { Output, OutputWriter } from '../../engine/component.js';
import type { Batch, Message } from '../../message/message.js';
import { encodeMessages, type OutputCodec, outputCodecField, outputCodecProblems } from './codec.js';

/** Open append handles kept at once; paths that vary per message would otherwise exhaust descriptors. */
const MAX_OPEN_FILES = 16;

/** A path no file system accepts fails its message with a clear error (Node's would name an argument). */
function checkedPath(path: string, index: number): string {
  if (path.includes('\u0000')) throw new Error(`file: message ${index}: the path holds a NUL character`);
  if (path === '') throw new Error(`file: message ${index}: the path is empty`);
  return path;
}

export class FileWriter implements OutputWriter {
  /** Least recently used first (Map keeps insertion order; a hit re-inserts). */
  private readonly handles = new Map<string, FileHandle>();

  constructor(
    private readonly path: Interpolation,
    private readonly codec: OutputCodec,
  ) {}

  async connect(): Promise<void> {}

  async write(batch: Batch): Promise<void> {
    if (this.codec.replaceWhole) {
      const paths = batch.map((_, i) => checkedPath(this.path.render(batch, i), i));
      for (let i = 0; i < batch.length; i++) await this.replace(paths[i] as string, batch[i] as Message);
      return;
    }
    // Every path is checked before anything is written: a batch that fails halfway would append
    // its first messages again on every retry.
    const groups = this.groupByPath(batch);
    for (const [path, messages] of groups) checkedPath(path, batch.indexOf(messages[0] as Message));
    for (const [path, messages] of groups) {
      const handle = await this.handle(path);
      await handle.write(encodeMessages(messages, this.codec));
    }
  }

  async close(): Promise<void> {
    const handles = [...this.handles.values()];
    this.handles.clear();
    await Promise.all(handles.map((h) => h.close()));
  }

  private groupByPath(batch: Batch): Map<string, Message[]> {
    if (this.path.isStatic) return new Map([[this.path.render(batch, 0), batch]]);
    const groups = new Map<string, Message[]>();
    for (let i = 0; i < batch.length; i++) {
      const path = this.path.render(batch, i);
      const group = groups.get(path);
      if (group) group.push(batch[i] as Message);
      else groups.set(path, [batch[i] as Message]);
    }
    return groups;
  }

  private async handle(path: string): Promise<FileHandle> {
    const existing = this.handles.get(path);
    if (existing) {
      this.handles.delete(path);
      this.handles.set(path, existing);
      return existing;
    }
    await mkdir(dirname(path), { recursive: true });
    const handle = await open(path, 'a');
    this.handles.set(path, handle);
    if (this.handles.size > MAX_OPEN_FILES) {
      const [oldestPath, oldest] = this.handles.entries().next().value as [string, FileHandle];
      this.handles.delete(oldestPath);
      await oldest.close();
    }
    return handle;
  }

  private async replace(path: string, msg: Message): Promise<void> {
    await mkdir(dirname(path), { recursive: true });
    const handle = await open(path, 'w');
    try {
      await handle.write(msg.bytes());
    } finally {
      await handle.close();
    }
  }
}

export const spec = defineComponent({
  name: 'file',
  kind: 'output',
  status: 'stable',
  categories: ['Local'],
  summary: 'Writes messages to files, creating missing directories.',
  description:
    'The path is interpolated per message, so one output can spread messages over many files. With `all-bytes` each message replaces the whole file; the other codecs append.',
  fields: [
    field.interpolated('path', 'The file to write to.', {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation, not a JS template
      examples: ['/tmp/data.txt', '/tmp/${! timestamp_unix() }.txt', '/tmp/${! json("document.id") }.json'],
    }),
    outputCodecField('How messages are delimited in the file.', {
      default: 'lines',
      options: ['all-bytes', 'append', 'delim:x', 'lines'],
      examples: ['lines', 'delim:\t', 'delim:foobar'],
    }),
  ],
  lint: (config) => outputCodecProblems(config.codec),
  examples: [
    {
      title: 'One file per day',
      config: `input:
  stdin: {}
output:
  file:
    path: './out/\${! now().ts_format("2006-01-02") }.log'
    codec: lines
`,
    },
  ],
  build: (config, ctx): Output => ctx.wrapWriter(new FileWriter(config.path, config.codec)),
});
