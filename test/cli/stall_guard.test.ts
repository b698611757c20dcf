// A normal-mode process whose event loop runs dry while its stream still waits must not exit 0.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Runs a script (ESM, under tsx) in a fresh Node process from the project root. */
function runScript(source: string) {
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', source], {
    cwd: root,
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('stall guard', () => {
  it('turns an exit on an empty event loop into status 70 with an error that says what was left', () => {
    const result = runScript(`
      import { guardAgainstStall } from './src/cli/stall_guard.ts';
      import { createLogger } from './src/engine/logger.ts';
      guardAgainstStall(createLogger(), () => '3 transactions are in flight');
      await new Promise(() => undefined);
    `);
    assert.equal(result.status, 70, result.stderr);
    assert.match(result.stderr, /the stream stalled: 3 transactions are in flight/);
  });

  it('lets a process whose work finished exit 0 once it is disposed', () => {
    const result = runScript(`
      import { guardAgainstStall } from './src/cli/stall_guard.ts';
      import { createLogger } from './src/engine/logger.ts';
      const dispose = guardAgainstStall(createLogger(), () => 'nothing');
      await new Promise((resolve) => setTimeout(resolve, 10));
      dispose();
    `);
    assert.equal(result.status, 0, result.stderr);
    assert.doesNotMatch(result.stderr, /stalled/);
  });
});
