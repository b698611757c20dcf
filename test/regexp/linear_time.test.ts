// Classic catastrophic-backtracking patterns finish on long inputs: user patterns run on a
// linear-time engine. Each pattern runs in a child process that is killed after a generous limit,
// so an engine that backtracks (V8's) fails the test instead of hanging the run.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const LIMIT_MS = 90_000;
const SCRIPT = join(import.meta.dirname, 'run_patterns.ts');

function runPattern(pattern: string, unit: string, tail: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, pattern, unit, tail], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), LIMIT_MS);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(JSON.parse(out));
      else reject(new Error(`${pattern} did not finish (code ${code}, signal ${signal}): ${err}`));
    });
  });
}

const none = { match: false, all: [], submatches: 0, object: 0 };

describe('catastrophic patterns run in linear time', { concurrency: 2 }, () => {
  const cases: [string, string, string][] = [
    ['^(a+)+$', 'a', '!'],
    ['(a|a)*b', 'a', '!'],
    ['(a|aa)+$', 'a', '!'],
    ['(x+x+)+y', 'x', ''],
    ['(\\d|\\w|[0-9a-z])+$', '1', '!'], // overlapping alternatives
    ['^(\\w+\\s?)*$', 'word ', '!'],
  ];
  for (const [pattern, unit, tail] of cases) {
    it(`${pattern} over ${JSON.stringify(unit)}×n + ${JSON.stringify(tail)}`, async () => {
      const results = await runPattern(pattern, unit, tail);
      for (const size of [10, 1000, 100_000]) {
        const input = unit.length * size + tail.length;
        const r = results[size] as Record<string, unknown>;
        const { replaced, ...rest } = r;
        assert.deepEqual(rest, none, `size ${size}`);
        assert.equal(replaced, input, `size ${size}: nothing replaced`);
      }
    });
  }

  it('finds the match that follows a long ambiguous run', async () => {
    // A backtracking engine tries every start inside the run of a's before reaching the match.
    const results = await runPattern('(a|aa)+$', 'a', '!aaa');
    for (const size of [10, 1000, 100_000]) {
      const r = results[size] as Record<string, unknown>;
      assert.equal(r.match, true);
      assert.deepEqual(r.all, [3]);
      assert.equal(r.submatches, 1);
      assert.equal(r.object, 2); // "0" and "1"
      assert.equal(r.replaced, size + 1 + 5); // the a's, "!" and "<aaa>"
    }
  });
});
