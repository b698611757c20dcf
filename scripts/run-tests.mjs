// Finds every test file and runs them with node's test runner through tsx.
// Node 20's --test does not expand globs itself, so the list is built here.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function findTests(dir) {
  const found = [];
  for (const entry of readdirSync(dir)) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) found.push(...findTests(full));
    else if (entry.endsWith('.test.ts')) found.push(full);
  }
  return found;
}

const filter = process.argv.slice(2);
let files = findTests('test').sort();
if (filter.length > 0) files = files.filter((f) => filter.some((part) => f.includes(part)));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
// A test file that leaves a handle open (say, an output still reconnecting after a failed test)
// would keep the run alive forever: after a generous limit the whole process group is killed and
// the run fails instead.
const LIMIT_MS = Number(process.env.NEKTON_TEST_LIMIT_MS ?? 30 * 60_000);
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files],
  { stdio: 'inherit', detached: true },
);
const limit = setTimeout(() => {
  console.error(
    `tests did not finish within ${Math.round(LIMIT_MS / 1000)} s: a test file hangs (open handles?)`,
  );
  process.kill(-child.pid, 'SIGKILL');
}, LIMIT_MS);
// Interrupting the runner stops the tests too.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.kill(-child.pid, 'SIGKILL'));
child.on('exit', (code, signal) => {
  clearTimeout(limit);
  process.exit(signal ? 1 : (code ?? 1));
});
