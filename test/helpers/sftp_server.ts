// An OpenSSH server of the test's own (Debian's openssh-server, its internal-sftp subsystem) on a
// free loopback port, with a generated host key and a generated client key: nothing of the
// machine's own sshd, users or passwords is touched. A test can kill it as a crash would (the
// listener and every session process) and start it again on the same port with the same keys.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { freePort } from './ports.js';
import { waitFor } from './wait.js';

export const SSHD = '/usr/sbin/sshd';

function keygen(file: string): void {
  const made = spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'nekton-test', '-f', file]);
  if (made.status !== 0) throw new Error(`ssh-keygen failed: ${made.stderr.toString()}`);
}

/** The SSH banner: what a listening sshd sends first. */
function banner(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('data', (d: Buffer) => done(d.toString().startsWith('SSH-2.0-')));
    socket.once('error', () => done(false));
  });
}

/** Pids of every process below `pid` (sshd's session processes), read from /proc. */
function descendants(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name may hold spaces and parentheses: the fields after the last ')' are fixed.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended while the list was read
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const child of parents.get(p) ?? []) {
      out.push(child);
      walk(child);
    }
  };
  walk(pid);
  return out;
}

export class SftpServer {
  private child: ChildProcess | null = null;
  private stderr = '';
  readonly dir: string;
  /** Where tests put and find files: an absolute path the server's user can write. */
  readonly root: string;
  readonly user = userInfo().username;

  private constructor(readonly port: number) {
    this.dir = mkdtempSync(join(tmpdir(), 'nekton-sftp-'));
    this.root = join(this.dir, 'files');
    mkdirSync(this.root);
    keygen(this.hostKeyFile);
    keygen(this.clientKeyFile);
    writeFileSync(join(this.dir, 'authorized_keys'), readFileSync(`${this.clientKeyFile}.pub`));
    writeFileSync(
      join(this.dir, 'sshd_config'),
      [
        `Port ${port}`,
        'ListenAddress 127.0.0.1',
        `HostKey ${this.hostKeyFile}`,
        `PidFile ${join(this.dir, 'sshd.pid')}`,
        'Subsystem sftp internal-sftp',
        // Key authentication only: a password would need the user's real one (never changed here).
        'PasswordAuthentication no',
        'KbdInteractiveAuthentication no',
        'PubkeyAuthentication yes',
        `AuthorizedKeysFile ${join(this.dir, 'authorized_keys')}`,
        `AllowUsers ${this.user}`,
        'PermitRootLogin prohibit-password',
        'UsePAM no',
        'StrictModes no',
        'MaxSessions 20',
        '',
      ].join('\n'),
    );
  }

  /**
   * Starts a server; null when sshd is not installed off CI (each test then skips through
   * `requireSftp`). On CI a missing sshd fails, as a missing service does.
   */
  static async start(): Promise<SftpServer | null> {
    if (!existsSync(SSHD)) {
      const message = `${SSHD} is not installed (Debian's openssh-server)`;
      if (process.env.CI === 'true') throw new Error(`${message} (CI=true: connector tests must not skip)`);
      return null;
    }
    // sshd refuses to start without its privilege separation directory.
    if (userInfo().uid === 0) mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
    const server = new SftpServer(await freePort());
    await server.restart();
    return server;
  }

  get hostKeyFile(): string {
    return join(this.dir, 'host_ed25519');
  }

  get clientKeyFile(): string {
    return join(this.dir, 'client_ed25519');
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** The server's public key line (`ssh-ed25519 AAAA... comment`), as `host_public_key` takes it. */
  get hostPublicKey(): string {
    return readFileSync(`${this.hostKeyFile}.pub`, 'utf8').trim();
  }

  /** A path under the server's file root. */
  path(...parts: string[]): string {
    return join(this.root, ...parts);
  }

  /** The YAML of `address` and `credentials` (key auth, pinned host key), indented for a component. */
  connection(indent = '    '): string {
    return [
      `address: ${this.address}`,
      'credentials:',
      `  username: ${this.user}`,
      `  private_key_file: ${this.clientKeyFile}`,
      `  host_public_key_file: ${this.hostKeyFile}.pub`,
    ]
      .map((line) => `${indent}${line}`)
      .join('\n');
  }

  /** Starts (again, after kill) on the same port with the same keys; resolves once it answers. */
  async restart(): Promise<void> {
    if (this.child && this.child.exitCode === null) return; // running: a second one could not bind
    this.stderr = '';
    const child = spawn(SSHD, ['-D', '-e', '-f', join(this.dir, 'sshd_config')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr?.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-4000);
    });
    this.child = child;
    await waitFor(
      () => {
        if (child.exitCode !== null) throw new Error(`sshd exited (${child.exitCode}): ${this.stderr}`);
        return banner(this.port);
      },
      { message: () => `sshd on port ${this.port}: ${this.stderr}`, failFast: true },
    );
  }

  /** Kills the listener and every session process abruptly (SIGKILL), as a crash would. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.pid === undefined) return;
    const sessions = descendants(child.pid);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    for (const pid of sessions) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await exited;
  }

  /** What sshd logged lately (for a failing test's message). */
  log(): string {
    return this.stderr;
  }

  async dispose(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The started server, or null after marking the test skipped (off CI, sshd not installed). */
export function requireSftp(t: Pick<TestContext, 'skip'>, server: SftpServer | null): SftpServer | null {
  if (server) return server;
  t.skip(`${SSHD} is not installed (Debian's openssh-server); install it to run this test`); // justified: off CI only, start() throws on CI=true
  return null;
}
