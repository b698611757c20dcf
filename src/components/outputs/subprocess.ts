// `subprocess` output: runs a program and writes each message to its stdin as a line; the
// program is started again when it exits.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import type { Logger } from 'pino';
import { defineComponent, field } from '../../config/spec.js';
import type { Output, OutputWriter } from '../../engine/component.js';
import { NotConnectedError } from '../../engine/errors.js';
import type { Batch } from '../../message/message.js';
import { holdEventLoop, spawnErrorText } from '../subprocess/run_command.js';

/** Most bytes of the program's stdout and stderr kept for the log line when it exits. */
const KEPT_OUTPUT = 64 * 1024;

export class SubprocessWriter implements OutputWriter {
  private child: ChildProcessWithoutNullStreams | null = null;

  constructor(
    private readonly name: string,
    private readonly args: readonly string[],
    private readonly logger: Logger,
  ) {}

  connect(): Promise<void> {
    if (this.child !== null) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const child = spawn(this.name, this.args, { stdio: ['pipe', 'pipe', 'pipe'] });
      const keep = (stream: NodeJS.ReadableStream) => {
        const parts: Buffer[] = [];
        let size = 0;
        stream.on('data', (chunk: Buffer) => {
          if (size >= KEPT_OUTPUT) return;
          parts.push(chunk.subarray(0, KEPT_OUTPUT - size));
          size += Math.min(chunk.length, KEPT_OUTPUT - size);
        });
        return () => Buffer.concat(parts).toString('utf8');
      };
      const stdout = keep(child.stdout);
      const stderr = keep(child.stderr);
      child.stdin.on('error', () => {});
      child.once('spawn', () => {
        this.child = child;
        holdEventLoop(child, false);
        resolve();
      });
      child.once('error', (err: NodeJS.ErrnoException) => {
        if (this.child !== child) reject(new Error(spawnErrorText(this.name, err)));
      });
      child.once('close', (code, signal) => {
        const out = stdout();
        this.logger.debug(out.length > 0 ? `Process exited with: ${out}` : 'Process exited');
        const err = stderr();
        if (err.length > 0) this.logger.error(`Process exited with error: ${err}`);
        else if (code !== 0)
          this.logger.error(`Process exited with code ${code ?? -1}: ${signal ?? `exit status ${code}`}`);
        if (this.child === child) this.child = null;
      });
    });
  }

  async write(batch: Batch): Promise<void> {
    const child = this.child;
    if (child === null || !child.stdin.writable) throw new NotConnectedError('subprocess not running');
    const chunks: Buffer[] = [];
    for (const msg of batch) chunks.push(Buffer.from(msg.bytes()), Buffer.from('\n'));
    const data = Buffer.concat(chunks);
    holdEventLoop(child, true);
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdin.write(data, (err) => {
          if (err) reject(new NotConnectedError(`failed to write to subprocess: ${err.message}`));
          else resolve();
        });
      });
    } finally {
      holdEventLoop(child, false);
    }
  }

  async close(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (child === null) return;
    // Closing stdin lets the program finish what it was given and exit on its own.
    const exited = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('close', () => resolve());
    });
    holdEventLoop(child, true);
    child.stdin.end();
    await exited;
  }
}

export const spec = defineComponent({
  name: 'subprocess',
  kind: 'output',
  status: 'beta',
  categories: ['Utility'],
  summary: 'Executes a command, runs it as a subprocess, and writes messages to it over stdin.',
  description: `Messages are written according to a specified codec. The process is expected to terminate gracefully when stdin is closed. If the subprocess exits unexpectedly then nekton will log anything printed to stderr and will log the exit code, and will attempt to execute the command again until success. The command is run directly with its arguments (never through a shell).

A write is done once the message is handed to the program's stdin (the program's own processing is not waited for); a write to a program that has exited fails and is retried once the program runs again.

The execution environment of the subprocess is the same as the nekton instance, including environment variables and the current working directory.`,
  fields: [
    field.string('name', 'The command to execute as a subprocess.'),
    field.array(field.string('args', 'A list of arguments to provide the command.', { default: [] })),
    field.enum('codec', 'The way in which messages should be written to the subprocess.', ['lines'], {
      default: 'lines',
    }),
  ],
  examples: [
    {
      title: 'Append messages to a file through a program',
      config: `input:
  generate:
    count: 3
    interval: ''
    mapping: 'root = "line " + counter().string()'
output:
  subprocess:
    name: tee
    args: [ '-a', '/tmp/nekton-subprocess-example.txt' ]
`,
    },
  ],
  build: (config, ctx): Output =>
    ctx.wrapWriter(new SubprocessWriter(config.name, config.args, ctx.logger), { maxInFlight: 1 }),
});
