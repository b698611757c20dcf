// Runs a program once (argv, never a shell) with stdin given, collecting stdout and stderr up to
// a bound; errors read as Go's os/exec errors do in the reference.
import { type ChildProcess, spawn } from 'node:child_process';

export interface CommandResult {
  stdout: Buffer;
  stderr: Buffer;
  /** null when the program exited 0. */
  error: string | null;
}

export interface RunOptions {
  stdin: Uint8Array;
  /** Most bytes kept of stdout; more kills the program and fails the run. */
  maxStdout: number;
  /** Most bytes kept of stderr (the rest is dropped). */
  maxStderr: number;
  signal?: AbortSignal;
}

/** The error text of a spawn failure, as Go's exec package words it. */
export function spawnErrorText(name: string, err: NodeJS.ErrnoException): string {
  if (err.code === 'ENOENT') return `exec: "${name}": executable file not found in $PATH`;
  if (err.code === 'EACCES') return `fork/exec ${name}: permission denied`;
  return `fork/exec ${name}: ${err.message}`;
}

export function runCommand(
  name: string,
  args: readonly string[],
  options: RunOptions,
): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = spawn(name, args, { stdio: ['pipe', 'pipe', 'pipe'], signal: options.signal });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let overflow = false;
    let spawnError: string | null = null;
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > options.maxStdout) {
        if (!overflow) {
          overflow = true;
          child.kill('SIGKILL');
        }
        return;
      }
      out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      const room = options.maxStderr - errBytes;
      if (room <= 0) return;
      err.push(room >= chunk.length ? chunk : chunk.subarray(0, room));
      errBytes += Math.min(room, chunk.length);
    });
    child.on('error', (e: NodeJS.ErrnoException) => {
      spawnError ??= e.name === 'AbortError' ? 'context canceled' : spawnErrorText(name, e);
    });
    // A program that exits without reading its stdin closes the pipe: not an error of the run.
    child.stdin.on('error', () => {});
    child.stdin.end(options.stdin);
    child.on('close', (code, signal) => {
      let error: string | null = spawnError;
      if (error === null && overflow) error = `output exceeds ${options.maxStdout} bytes`;
      if (error === null && signal !== null) error = `signal: ${signalName(signal)}`;
      if (error === null && code !== 0) error = `exit status ${code}`;
      resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(err), error });
    });
  });
}

const GO_SIGNAL_NAMES: Record<string, string> = {
  SIGKILL: 'killed',
  SIGTERM: 'terminated',
  SIGINT: 'interrupt',
  SIGSEGV: 'segmentation fault',
  SIGABRT: 'aborted',
  SIGPIPE: 'broken pipe',
  SIGHUP: 'hangup',
};

function signalName(signal: string): string {
  return GO_SIGNAL_NAMES[signal] ?? signal;
}

interface Unreffable {
  ref?(): void;
  unref?(): void;
}

/**
 * Whether a long-running child (and its pipes) keeps nekton's event loop alive: off while idle,
 * so a program that never exits cannot hold up nekton's own exit; on while nekton waits on it.
 */
export function holdEventLoop(child: ChildProcess, hold: boolean): void {
  // The pipes are sockets (with ref/unref) though typed as plain streams.
  const parts = [child, child.stdin, child.stdout, child.stderr] as (Unreffable | null)[];
  for (const p of parts) {
    if (hold) p?.ref?.();
    else p?.unref?.();
  }
}
