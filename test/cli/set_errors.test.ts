// `-s path=value` values have no line in the file: their errors name the --set (and so the field)
// instead of pointing at line 1 of a file that may not even have that key. And --help lists
// every --log.level the check accepts.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { LOG_LEVEL_NAMES } from '../../src/engine/log_levels.js';
import { runNekton, tempDir } from '../helpers/cli.js';

function configFile(): string {
  const file = join(tempDir(), 'plain.yaml');
  writeFileSync(file, 'input:\n  stdin: {}\noutput:\n  stdout: {}\n');
  return file;
}

describe('errors in --set values', () => {
  for (const [set, message] of [
    ['logger.level=bogus', 'value bogus is not a valid option for this field'],
    ['input.stdin.nope=1', 'field nope not recognised'],
    ['pipeline.threads=abc', 'field threads: expected int value, got string'],
    ['shutdown_timeout=bogus', 'shutdown_timeout: time: invalid duration "bogus"'],
  ]) {
    it(`-s ${set} is reported as that --set, not at line 1`, async () => {
      const file = configFile();
      const result = await runNekton(['-c', file, '-s', set]);
      assert.equal(result.code, 1, result.stderr);
      assert.ok(result.stderr.includes(`${file}(--set ${set}) ${message}`), result.stderr);
      assert.doesNotMatch(result.stderr, /\(1,1\)/);
    });
  }

  it('lint reports a --set value the same way, and a value from the file at its line', async () => {
    const file = join(tempDir(), 'levels.yaml');
    writeFileSync(file, 'logger:\n  level: loud\ninput:\n  stdin: {}\noutput:\n  stdout: {}\n');
    const result = await runNekton(['lint', file, '-s', 'input.stdin.codec=nonsense']);
    assert.equal(result.code, 1);
    assert.deepEqual(result.stdout.trim().split('\n').sort(), [
      `${file}(--set input.stdin.codec=nonsense) value nonsense is not a valid option for this field`,
      `${file}(2,1) value loud is not a valid option for this field`,
    ]);
  });
});

describe('--log.level in --help', () => {
  it('lists every level the option accepts', async () => {
    const result = await runNekton(['--help']);
    assert.equal(result.code, 0);
    const help = result.stdout.replace(/\s+/g, ' ');
    const listed = /--log\.level <level> override the log level: ([a-z, ]+)/.exec(help)?.[1] ?? '';
    assert.deepEqual(
      listed.split(',').map((s) => s.trim()),
      [...LOG_LEVEL_NAMES],
    );
  });
});
