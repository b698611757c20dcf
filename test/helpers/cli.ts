// Runs the built `bin/nekton` as a user would, with a bounded lifetime.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export const NEKTON_BIN = join(import.meta.dirname, '..', '..', 'bin', 'nekton');

export function tempDir(prefix = 'nekton-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Runs nekton to completion (killed after timeoutMs) and collects its output. */
export function runNekton(
  args: string[],
  options: { env?: Record<string, string>; input?: string; timeoutMs?: number; cwd?: string } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [NEKTON_BIN, ...args], {
      env: { ...process.env, ...options.env },
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** Starts nekton in the background; the caller stops it. */
export function startNekton(
  args: string[],
  env: Record<string, string> = {},
): ChildProcess & { output(): string } {
  const child = spawn(process.execPath, [NEKTON_BIN, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  return Object.assign(child, { output: () => output });
}

/**
 * Starts nekton on a config written for a free port (`config(port)`), in the background; `exited`
 * settles with its exit code. The caller stops it.
 */
export async function startNektonOnPort(
  config: (port: number) => string,
): Promise<{ nekton: ReturnType<typeof startNekton>; port: number; exited: Promise<number | null> }> {
  const port = await freePort();
  const file = join(tempDir(), 'config.yaml');
  writeFileSync(file, config(port));
  const nekton = startNekton(['-c', file]);
  const exited = new Promise<number | null>((resolve) => nekton.on('exit', (code) => resolve(code)));
  return { nekton, port, exited };
}
