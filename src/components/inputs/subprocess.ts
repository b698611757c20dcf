// `subprocess` input: runs a program and reads its stdout, one message per line; ends when the
// program exits, or runs it again with `restart_on_exit`.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { defineComponent, field } from '../../config/spec.js';
import type { Input, InputReader, Transaction } from '../../engine/component.js';
import { errorMessage, NotConnectedError } from '../../engine/errors.js';
import { Message } from '../../message/message.js';
import { FrameReader } from '../subprocess/frames.js';
import { spawnErrorText } from '../subprocess/run_command.js';

/** Lines held before the program's stdout is paused (backpressure on the program). */
const HIGH_WATER = 1024;

type Item = { line: Buffer } | { error: Error };

const ACK = async () => {};

export class SubprocessReader implements InputReader {
  private child: ChildProcessWithoutNullStreams | null = null;
  private items: Item[] = [];
  /** Set once both pipes ended: the run is over once the items are read. */
  private finished = false;
  private wake: (() => void) | null = null;
  private closed = false;

  constructor(
    private readonly name: string,
    private readonly args: readonly string[],
    private readonly restartOnExit: boolean,
    private readonly maxBuffer: number,
  ) {}

  connect(): Promise<void> {
    if (this.child !== null) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const child = spawn(this.name, this.args, {
        stdio: ['ignore', 'pipe', 'pipe'],
      }) as unknown as ChildProcessWithoutNullStreams;
      this.items = [];
      this.finished = false;
      let open = 2;
      const push = (item: Item) => {
        this.items.push(item);
        if (this.items.length >= HIGH_WATER) child.stdout.pause();
        this.notify();
      };
      const ended = () => {
        if (--open === 0) {
          this.finished = true;
          this.notify();
        }
      };
      const watch = (stream: NodeJS.ReadableStream, onFrame: (frame: Buffer) => void, what: string) => {
        const reader = new FrameReader('lines', this.maxBuffer);
        let broken = false;
        stream.on('data', (chunk: Buffer) => {
          if (broken) return;
          try {
            for (const frame of reader.push(chunk)) onFrame(frame);
          } catch (err) {
            // As a Go scanner: a line over max_buffer ends reading this pipe, reported as an error.
            broken = true;
            push({ error: new Error(`${what}: ${errorMessage(err)}`) });
            child.kill('SIGKILL');
          }
        });
        stream.on('end', () => {
          if (!broken) for (const frame of reader.end()) onFrame(frame);
          ended();
        });
      };
      watch(child.stdout, (line) => push({ line }), 'stdout');
      watch(child.stderr, (line) => push({ error: new Error(line.toString('utf8')) }), 'stderr');
      child.once('spawn', () => {
        this.child = child;
        resolve();
      });
      child.once('error', (err: NodeJS.ErrnoException) => {
        if (this.child !== child) reject(new Error(spawnErrorText(this.name, err)));
      });
    });
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  async read(): Promise<Transaction | null> {
    for (;;) {
      if (this.closed) return null;
      const child = this.child;
      if (child === null) throw new NotConnectedError('subprocess not running');
      const item = this.items.shift();
      if (item !== undefined) {
        if (this.items.length < HIGH_WATER) child.stdout.resume();
        if ('error' in item) throw item.error;
        // The program cannot send a line again: the ack has nothing to settle upstream.
        return { batch: [new Message(item.line)], ack: ACK };
      }
      if (this.finished) {
        this.child = null;
        if (this.restartOnExit) throw new NotConnectedError('subprocess exited');
        this.closed = true;
        return null;
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const child = this.child;
    this.child = null;
    this.notify();
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
      child.kill('SIGTERM');
      await exited;
    }
  }
}

export const spec = defineComponent({
  name: 'subprocess',
  kind: 'input',
  status: 'beta',
  categories: ['Utility'],
  summary: 'Executes a command, runs it as a subprocess, and consumes messages from it over stdout.',
  description: `Messages are consumed according to a specified codec. The command is executed once and if it terminates the input also closes down gracefully. Alternatively, the field \`restart_on_exit\` can be set to \`true\` in order to have nekton re-execute the command each time it stops. The command is run directly with its arguments (never through a shell).

Each line the program writes to stderr is logged as a read error. A line longer than \`max_buffer\` is an error too, and ends that run of the program (which then ends the input, or is restarted). Lines the program writes while nothing reads them wait in a bounded queue; when it is full the program's stdout is no longer read, so a fast program blocks on its writes.

Messages read from a program cannot be read again: a message that fails downstream is not redelivered by this input.

The field \`max_buffer\` defines the maximum message size able to be read from the subprocess. This value should be set significantly above the real expected maximum message size.

The execution environment of the subprocess is the same as the nekton instance, including environment variables and the current working directory.`,
  fields: [
    field.string('name', 'The command to execute as a subprocess.', { examples: ['cat', 'sed', 'awk'] }),
    field.array(field.string('args', 'A list of arguments to provide the command.', { default: [] })),
    field.enum('codec', 'The way in which messages should be consumed from the subprocess.', ['lines'], {
      default: 'lines',
    }),
    field.bool(
      'restart_on_exit',
      'Whether the command should be re-executed each time the subprocess ends.',
      {
        default: false,
      },
    ),
    field.int('max_buffer', 'The maximum expected size of an individual message.', {
      default: 65536,
      advanced: true,
    }),
  ],
  examples: [
    {
      title: 'Lines of a program',
      config: `input:
  subprocess:
    name: seq
    args: [ '1', '3' ]
output:
  stdout: {}
`,
    },
  ],
  build: (config, ctx): Input =>
    ctx.wrapReader(new SubprocessReader(config.name, config.args, config.restart_on_exit, config.max_buffer)),
});
