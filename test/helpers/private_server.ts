// A server process of the test's own (never the shared service), on a free port with a temporary
// data directory, that a test can kill (SIGKILL, as a crash would) and start again in place.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export abstract class PrivateServer {
  private child: ChildProcess | null = null;
  readonly dir: string;

  protected constructor(
    readonly port: number,
    name: string,
  ) {
    this.dir = mkdtempSync(join(tmpdir(), `nekton-${name}-`));
  }

  /** The command and arguments that start the server on `port` with its data in `dir`. */
  protected abstract command(): [string, string[]];

  /** Resolves once the server answers clients. */
  protected abstract waitReady(): Promise<unknown>;

  /** Starts (again, after kill) on the same port and data directory; resolves once it answers. */
  async restart(): Promise<void> {
    const [command, args] = this.command();
    this.child = spawn(command, args, { stdio: 'ignore' });
    await this.waitReady();
  }

  /** Kills the server abruptly (SIGKILL), as a crash would. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  async dispose(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
