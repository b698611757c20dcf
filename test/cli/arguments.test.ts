// Command-line mistakes are refused with a message that says what is wrong.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runNekton, tempDir } from '../helpers/cli.js';

function onceConfig(): string {
  const path = join(tempDir(), 'once.yaml');
  writeFileSync(
    path,
    `http: {enabled: false}\ninput:\n  generate: {count: 1, interval: "", mapping: 'root = "ok"'}\noutput:\n  stdout: {}\n`,
  );
  return path;
}

describe('command-line arguments', () => {
  it('refuses an unknown --log.level, listing the valid ones', async () => {
    const result = await runNekton(['--log.level', 'bogus', '-c', onceConfig()]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /argument 'bogus' is invalid/);
    assert.match(result.stderr, /off, none, fatal, error, warn, warning, info, debug, trace, all/);
    assert.equal(result.stdout, '', 'the config ran anyway');
  });

  it('accepts a valid --log.level in any case', async () => {
    const result = await runNekton(['-c', onceConfig(), '--log.level', 'WARN']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'ok\n');
    assert.doesNotMatch(result.stderr, /level=info/, 'the level was not applied');
  });

  it('names an unknown command as such', async () => {
    const result = await runNekton(['bogus-cmd']);
    assert.equal(result.code, 1);
    assert.equal(result.stderr, "error: unknown command 'bogus-cmd'\n");
  });

  // Templates were refused here until issue 19; test/templates/ covers them. A template file
  // that does not exist is still a one-line error in both modes.
  it('reports a -t/--templates file that does not exist in plain words, in both modes', async () => {
    for (const args of [
      ['-t', 'x/missing.yaml', '-c', onceConfig()],
      ['streams', '--templates', 'x/missing.yaml'],
    ]) {
      const result = await runNekton(args);
      assert.equal(result.code, 1);
      assert.equal(result.stderr, 'template x/missing.yaml: file not found\n');
      assert.equal(result.stdout, '');
    }
  });

  it('lists the options that apply to every command in `streams --help`', async () => {
    const result = await runNekton(['streams', '--help']);
    assert.equal(result.code, 0);
    for (const flag of ['--set', '--env-file', '--resources', '--chilled', '--log.level', '--templates']) {
      assert.ok(result.stdout.includes(flag), flag);
    }
  });

  it('still runs a config given by -c or by run', async () => {
    const config = onceConfig();
    for (const args of [
      ['-c', config],
      ['run', config],
    ]) {
      const result = await runNekton(args);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, 'ok\n');
    }
  });
});
