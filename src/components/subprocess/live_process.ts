// A long-running subprocess spoken to by request and answer (the `subprocess` processor): each
// send writes one message to stdin and waits for one frame on stdout, or for stderr, which fails
// the message. A process that exits is restarted.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import type { Logger } from 'pino';
import { sleep } from '../../engine/backoff.js';
import { errorMessage } from '../../engine/errors.js';
import { type FrameCodec, FrameReader } from './frames.js';
import { holdEventLoop, spawnErrorText } from './run_command.js';

/** The reference's component.ErrTypeClosed. */
export const TYPE_CLOSED = 'type was closed';
/** How long stderr is gathered after its first line before the answer is given (as the reference). */
const STDERR_GATHER_MS = 1000;

type Event = { kind: 'out'; data: Buffer } | { kind: 'err'; data: Buffer } | { kind: 'exit' };

export class LiveSubprocess {
  private child: ChildProcessWithoutNullStreams | null = null;
  private events: Event[] = [];
  private wake: (() => void) | null = null;
  private closed = false;
  private stderrOpen = false;

  constructor(
    private readonly name: string,
    private readonly args: readonly string[],
    private readonly maxBuffer: number,
    private readonly codecRecv: FrameCodec,
    private readonly logger: Logger,
  ) {}

  /** Starts the process; rejects when it cannot be started. */
  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.name, this.args, { stdio: ['pipe', 'pipe', 'pipe'] });
      const events: Event[] = [];
      this.events = events;
      const push = (e: Event) => {
        if (this.events !== events) return; // a previous run's late output
        events.push(e);
        const wake = this.wake;
        this.wake = null;
        wake?.();
      };
      const out = new FrameReader(this.codecRecv, this.maxBuffer);
      const err = new FrameReader('lines', this.maxBuffer);
      // After a read error the run's output is no longer trusted: it is dropped until the restart.
      let broken = false;
      child.stdout.on('data', (chunk: Buffer) => {
        if (broken) return;
        try {
          for (const data of out.push(chunk)) push({ kind: 'out', data });
        } catch (e) {
          this.logger.error(`Failed to read subprocess output: ${errorMessage(e)}`);
          broken = true;
          child.kill('SIGKILL');
        }
      });
      child.stdout.on('end', () => {
        if (!broken) for (const data of out.end()) push({ kind: 'out', data });
      });
      this.stderrOpen = true;
      child.stderr.on('data', (chunk: Buffer) => {
        if (broken) return;
        try {
          for (const data of err.push(chunk)) push({ kind: 'err', data });
        } catch (e) {
          this.logger.error(`Failed to read subprocess error output: ${errorMessage(e)}`);
          broken = true;
          child.kill('SIGKILL');
        }
      });
      child.stderr.on('end', () => {
        if (!broken) for (const data of err.end()) push({ kind: 'err', data });
        this.stderrOpen = false;
      });
      child.stdin.on('error', () => {});
      child.once('spawn', () => {
        this.child = child;
        holdEventLoop(child, false);
        this.logger.info('Subprocess started');
        resolve();
      });
      child.once('error', (e: NodeJS.ErrnoException) => {
        if (this.child !== child) reject(new Error(spawnErrorText(this.name, e)));
      });
      child.once('close', () => {
        if (this.child !== child) return;
        this.child = null;
        push({ kind: 'exit' });
        if (!this.closed) void this.restart();
      });
    });
  }

  private async restart(): Promise<void> {
    this.logger.warn('Subprocess exited');
    for (let wait = 100; !this.closed; wait = Math.min(wait * 2, 5000)) {
      try {
        await this.start();
        return;
      } catch (e) {
        this.logger.error(`Failed to restart subprocess: ${errorMessage(e)}`);
        await sleep(wait);
      }
    }
  }

  /** Writes one message and waits for its answer: the stdout frame, or an error made of stderr. */
  async send(prolog: Uint8Array | null, payload: Uint8Array, epilog: Uint8Array | null): Promise<Buffer> {
    const child = this.child;
    if (child === null || this.closed) throw new Error(TYPE_CLOSED);
    const events = this.events;
    holdEventLoop(child, true);
    try {
      return await this.exchange(child, events, prolog, payload, epilog);
    } finally {
      holdEventLoop(child, false);
    }
  }

  private async exchange(
    child: ChildProcessWithoutNullStreams,
    events: Event[],
    prolog: Uint8Array | null,
    payload: Uint8Array,
    epilog: Uint8Array | null,
  ): Promise<Buffer> {
    if (prolog) child.stdin.write(prolog);
    child.stdin.write(payload);
    if (epilog) child.stdin.write(epilog);
    const first = await this.nextEvent(events, null);
    if (first === null || first.kind === 'exit') throw new Error(TYPE_CLOSED);
    if (first.kind === 'out') return first.data;
    // Gather the rest of stderr for a moment, as the reference does, then fail with all of it.
    const parts: Buffer[] = [first.data];
    const deadline = Date.now() + STDERR_GATHER_MS;
    while (this.stderrOpen || events.some((e) => e.kind === 'err')) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      const next = await this.nextEvent(events, left, 'err');
      if (next === null || next.kind !== 'err') break;
      parts.push(next.data);
    }
    throw new Error(Buffer.concat(parts).toString('utf8'));
  }

  /** The next event of this run (only stderr lines with `only`), or null after `timeoutMs`. */
  private async nextEvent(events: Event[], timeoutMs: number | null, only?: 'err'): Promise<Event | null> {
    const deadline = timeoutMs === null ? null : Date.now() + timeoutMs;
    for (;;) {
      const i = only ? events.findIndex((e) => e.kind === only) : 0;
      if (i >= 0 && i < events.length) return events.splice(i, 1)[0]!;
      if (this.events !== events) return { kind: 'exit' };
      const left = deadline === null ? null : deadline - Date.now();
      if (left !== null && left <= 0) return null;
      await new Promise<void>((resolve) => {
        const timer = left === null ? null : setTimeout(resolve, left);
        this.wake = () => {
          if (timer) clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const child = this.child;
    this.child = null;
    const wake = this.wake;
    this.wake = null;
    this.events = [];
    wake?.();
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
      holdEventLoop(child, true);
      child.kill('SIGTERM');
      await exited;
    }
  }
}
