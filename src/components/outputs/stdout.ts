// The `stdout` output: writes messages to standard output, one batch per write call.
import type { Writable } from 'node:stream';
import { defineComponent } from '../../config/spec.js';
import type { Output, OutputWriter } from '../../engine/component.js';
import { asError } from '../../engine/errors.js';
import { reportStdoutClosed } from '../../engine/stdout_closed.js';
import type { Batch } from '../../message/message.js';
import {
  encodeGroups,
  OUTPUT_CODEC_OPTIONS,
  type OutputCodec,
  outputCodecField,
  outputCodecProblems,
} from './codec.js';

export class StreamWriter implements OutputWriter {
  private brokenPipe: Error | null = null;
  /** Groups of batches written since the last flush, kept as given (a write is a group of one). */
  private queued: (readonly Batch[])[] = [];
  private waiting: Array<{ resolve: () => void; reject: (err: Error) => void }> = [];
  private flushScheduled = false;
  private readonly onError = (err: NodeJS.ErrnoException) => {
    // Without a listener an EPIPE (the reader went away, e.g. `| head`) would crash the process.
    this.brokenPipe = err;
    if (err.code === 'EPIPE') this.onReaderGone?.(err);
  };

  constructor(
    private readonly stream: Writable,
    private readonly codec: OutputCodec,
    /** Told when the reader closed the pipe: no later write can succeed. */
    private readonly onReaderGone?: (err: Error) => void,
  ) {}

  async connect(): Promise<void> {
    this.stream.on('error', this.onError);
  }

  write(batch: Batch): Promise<void> {
    return this.queue([batch]);
  }

  /** Batches in order: the same bytes as writing them one by one. */
  writeGroup(batches: readonly Batch[]): Promise<void> {
    return this.queue(batches);
  }

  private queue(batches: readonly Batch[]): Promise<void> {
    if (this.brokenPipe) return Promise.reject(new Error(`stdout is closed: ${this.brokenPipe.message}`));
    return new Promise((resolve, reject) => {
      this.queued.push(batches);
      this.waiting.push({ resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(this.flushQueued);
      }
    });
  }

  /**
   * Writes everything queued since the last flush as one chunk: batches written in the same turn
   * of the event loop cost one write call (one syscall on a file or pipe) instead of one each. They
   * are encoded here, once, rather than each group on its own and then joined (a second copy).
   */
  private readonly flushQueued = () => {
    this.flushScheduled = false;
    let queued = this.queued;
    let waiting = this.waiting;
    this.queued = [];
    this.waiting = [];
    let chunk: Buffer;
    try {
      chunk = encodeGroups(queued, this.codec);
    } catch {
      // A message whose content cannot be serialised (a structure holding NaN, say): only the
      // writes holding one fail; the others are written. This runs outside any promise, where a
      // throw would end the process.
      ({ queued, waiting } = this.dropUnencodable(queued, waiting));
      if (queued.length === 0) return;
      chunk = encodeGroups(queued, this.codec);
    }
    this.stream.write(chunk, (err) => {
      for (const w of waiting) {
        if (err) w.reject(err);
        else w.resolve();
      }
    });
  };

  /** Rejects each write holding a message that cannot be encoded; returns the writes left. */
  private dropUnencodable(
    queued: (readonly Batch[])[],
    waiting: Array<{ resolve: () => void; reject: (err: Error) => void }>,
  ): { queued: (readonly Batch[])[]; waiting: typeof waiting } {
    const keptQueued: (readonly Batch[])[] = [];
    const keptWaiting: typeof waiting = [];
    for (let i = 0; i < queued.length; i++) {
      try {
        encodeGroups([queued[i]!], this.codec);
        keptQueued.push(queued[i]!);
        keptWaiting.push(waiting[i]!);
      } catch (err) {
        waiting[i]!.reject(asError(err));
      }
    }
    return { queued: keptQueued, waiting: keptWaiting };
  }

  async close(): Promise<void> {
    this.stream.off('error', this.onError);
  }
}

export const spec = defineComponent({
  name: 'stdout',
  kind: 'output',
  status: 'stable',
  categories: ['Local'],
  summary: 'Writes messages to standard output, each followed by a newline by default.',
  description:
    '`codec` sets how messages are delimited: `lines` (the default) writes each message followed by a newline, `delim:x` uses a custom delimiter, `append` and `all-bytes` write the bytes as they are. Batches ready together are written with one write call. If standard output is closed, the write fails and the messages are nacked.',
  fields: [
    outputCodecField('How messages are delimited in the stream.', {
      default: 'lines',
      options: OUTPUT_CODEC_OPTIONS,
      examples: ['lines', 'delim:\t', 'delim:foobar'],
    }),
  ],
  lint: (config) => outputCodecProblems(config.codec),
  examples: [
    {
      title: 'Tab-separated output',
      config: `input:
  stdin: {}
output:
  stdout:
    codec: "delim:\\t"
`,
    },
  ],
  // Several batches in flight let StreamWriter coalesce them into one write; they are written in
  // the order they were dispatched.
  build: (config, ctx): Output =>
    ctx.wrapWriter(new StreamWriter(process.stdout, config.codec, reportStdoutClosed), {
      maxInFlight: 64,
    }),
});
