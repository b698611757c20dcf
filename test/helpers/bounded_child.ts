// Runs one exported function in a child process and fails if it does not finish in time: a
// quadratic path blocks the event loop, so a timer in the same process could never fire.
import { spawn } from 'node:child_process';

const runner = new URL('./bounded_child_runner.ts', import.meta.url).pathname;

/**
 * Calls `name(...args)` exported by `moduleUrl` in a child started with `nodeFlags` (a heap limit,
 * say); resolves to its JSON result, rejects when it fails or after `timeoutMs`.
 */
export function callInChild(
  moduleUrl: URL,
  name: string,
  args: unknown[],
  timeoutMs: number,
  nodeFlags: string[] = [],
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const argv = [...nodeFlags, '--import', 'tsx', runner, moduleUrl.href, name, JSON.stringify(args)];
    const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not finish within ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(JSON.parse(out) as unknown);
      else reject(new Error(`${name} failed (exit ${code}): ${err.trim()}`));
    });
  });
}
