// Finds every test file and runs them with node's test runner through tsx.
// Node 20's --test does not expand globs itself, so the list is built here.
import { spawnSync } from 'node:child_process';
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
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
