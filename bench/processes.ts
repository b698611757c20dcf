// Child processes for the bench: nekton as a user runs it (the built `bin/nekton`, with the Node
// flags of its #! line), baselines, and the small waits and probes around them.
import { type ChildProcess, spawn } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..');
export const NEKTON_BIN = join(ROOT, 'bin', 'nekton');
/** The Node flags on bin/nekton's `#!/usr/bin/env -S node ...` line: what the installed command runs with. */
export const NEKTON_NODE_FLAGS = (
  /^#!.*\bnode\b(.*)$/m.exec(readFileSync(NEKTON_BIN, 'utf8').split('\n')[0] ?? '')?.[1] ?? ''
)
  .split(/\s+/)
  .filter(Boolean);

const devNull = () => openSync('/dev/null', 'w');

/** Runs a command to completion with stdout into /dev/null; resolves the seconds it took and its stderr. */
export function runCommand(
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ seconds: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    let stderr = '';
    const child = spawn(command, args, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', devNull(), 'pipe'],
    });
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (code !== 0) reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr.slice(-400)}`));
      else resolve({ seconds, stderr });
    });
  });
}

/** Runs a command to completion with stdout into /dev/null; resolves the seconds it took. */
export const timeCommand = async (command: string, args: string[], env: Record<string, string> = {}) =>
  (await runCommand(command, args, env)).seconds;

/** `node bin/nekton ...args` to completion; resolves seconds. */
export const timeNekton = (args: string[], env: Record<string, string> = {}) =>
  timeCommand(process.execPath, [...NEKTON_NODE_FLAGS, NEKTON_BIN, ...args], env);

const RSS_PROBE = join(ROOT, 'bench', 'baselines', 'report_max_rss.cjs');
/** `node --require` this to have a process report its CPU seconds on exit (see cpuSeconds). */
export const CPU_PROBE = join(ROOT, 'bench', 'baselines', 'report_cpu.cjs');

/** The CPU seconds a process preloaded with CPU_PROBE reported on its stderr. */
export function cpuSeconds(stderr: string): number {
  const found = /BENCH_CPU_S=([\d.e+-]+)/.exec(stderr);
  if (!found) throw new Error('the process did not report its CPU time');
  return Number(found[1]);
}

/** A Node script (`node --require CPU_PROBE script ...args`) to completion: wall and CPU seconds. */
export async function timeNodeCpu(args: string[]): Promise<{ seconds: number; cpu: number }> {
  const { seconds, stderr } = await runCommand(process.execPath, ['--require', CPU_PROBE, ...args]);
  return { seconds, cpu: cpuSeconds(stderr) };
}

/** `node bin/nekton ...args` to completion: wall and CPU seconds. */
export const timeNektonCpu = (args: string[]) => timeNodeCpu([...NEKTON_NODE_FLAGS, NEKTON_BIN, ...args]);

/** `node bin/nekton ...args` to completion; resolves seconds and the process's peak resident memory in KB. */
export async function timeNektonWithRss(args: string[]): Promise<{ seconds: number; maxRssKb: number }> {
  const { seconds, stderr } = await runCommand(process.execPath, [
    ...NEKTON_NODE_FLAGS,
    '--require',
    RSS_PROBE,
    NEKTON_BIN,
    ...args,
  ]);
  const found = /NEKTON_MAX_RSS_KB=(\d+)/.exec(stderr);
  if (!found) throw new Error('the process did not report its peak memory');
  return { seconds, maxRssKb: Number(found[1]) };
}

export interface Background {
  child: ChildProcess;
  stderr(): string;
  stop(): Promise<void>;
}

/** Starts a long-running process; `stop()` sends SIGTERM, then SIGKILL after 5 s. */
export function startBackground(
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Background {
  let stderr = '';
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.on('data', (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export const startNekton = (args: string[], nodeFlags: string[] = []) =>
  startBackground(process.execPath, [...NEKTON_NODE_FLAGS, ...nodeFlags, NEKTON_BIN, ...args]);

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `url` until it answers below 500 (GET, or POST of `body`), or fails after `timeoutMs`. */
export async function waitForHttp(
  url: string,
  proc: Background,
  timeoutMs = 20_000,
  body?: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null)
      throw new Error(`exited ${proc.child.exitCode}: ${proc.stderr().slice(-400)}`);
    try {
      const res = await fetch(url, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(2000),
      });
      await res.arrayBuffer();
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms: ${proc.stderr().slice(-400)}`);
}

/** Resident memory of a process in KiB, from /proc/<pid>/status (Linux). */
export function rssKiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (!match) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(match[1]);
}

/** Which components the built nekton registers, from `nekton list --format json` (so a bench never runs stale code). */
let listed: Promise<string> | null = null;
export async function isRegistered(
  kind: 'inputs' | 'outputs' | 'processors',
  name: string,
): Promise<boolean> {
  listed ??= new Promise((resolve, reject) => {
    let out = '';
    const child = spawn(process.execPath, [NEKTON_BIN, 'list', '--format', 'json'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', () => resolve(out));
  });
  // The text format is the reference's, for people; the JSON one is the stable form for programs.
  const byKind = JSON.parse(await listed) as Record<string, string[] | undefined>;
  return byKind[kind]?.includes(name) ?? false;
}
