// A short run of the socket-level fuzzer (scripts/fuzz.mjs, `npm run fuzz` runs it for 10 minutes)
// against bin/nekton in normal and streams mode: every listener survives resets, upgrades, garbage,
// pipelining, slow-loris, huge headers and bodies, bad chunked encoding and cross-site requests.
// It runs the bundle: `npm run build` first (npm test does).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const SCRIPT = join(import.meta.dirname, '..', '..', 'scripts', 'fuzz.mjs');

function runFuzz(seconds: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SCRIPT, '--seconds', String(seconds), '--clients', '12'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('socket-level fuzzing of every listener', { timeout: 180_000 }, () => {
  it('leaves both processes alive, answers no 500 and gives back memory and fds', async () => {
    const { code, output } = await runFuzz(12);
    assert.match(output, /OK: no crash, no 500/, output);
    assert.equal(code, 0, output);
    assert.match(output, /normal\s+RSS .* alive: yes/);
    assert.match(output, /streams\s+RSS .* alive: yes/);
  });
});
