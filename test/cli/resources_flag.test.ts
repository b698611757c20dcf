// `-r/--resources GLOB` adds the `*_resources` of other files, in normal mode as in streams mode;
// a pattern that names no file is an error, as in Benthos.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runNekton, tempDir } from '../helpers/cli.js';

const NO_STACK = /\n\s+at /;

/** A config that needs processor resource `up` from elsewhere. */
function baseConfig(dir: string): string {
  const path = join(dir, 'base.yaml');
  writeFileSync(
    path,
    `http: {enabled: false}\ninput:\n  generate: {count: 2, interval: "", mapping: 'root = "hi"'}\npipeline:\n  processors: [{resource: up}]\noutput:\n  stdout: {}\n`,
  );
  return path;
}

describe('-r/--resources in normal mode', () => {
  it('adds the processor resources of the -r file (and of every file a glob matches)', async () => {
    const dir = tempDir();
    const base = baseConfig(dir);
    writeFileSync(
      join(dir, 'res-up.yaml'),
      `processor_resources:\n  - label: up\n    mapping: 'root = content().uppercase()'\n`,
    );
    writeFileSync(join(dir, 'res-other.yaml'), 'cache_resources:\n  - label: c\n    memory: {}\n');
    const direct = await runNekton(['-c', base, '-r', join(dir, 'res-up.yaml')]);
    assert.equal(direct.code, 0, direct.stderr);
    assert.equal(direct.stdout, 'HI\nHI\n');
    const globbed = await runNekton(['-c', base, '--resources', join(dir, 'res-*.yaml')]);
    assert.equal(globbed.code, 0, globbed.stderr);
    assert.equal(globbed.stdout, 'HI\nHI\n');
  });

  it('refuses a -r file that does not exist and a glob that matches nothing, naming them', async () => {
    const dir = tempDir();
    const base = baseConfig(dir);
    const missing = await runNekton(['-c', base, '-r', join(dir, 'nope.yaml')]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /nope\.yaml: file not found/);
    assert.doesNotMatch(missing.stderr, NO_STACK);
    const pattern = join(dir, 'nothing-*.yaml');
    const unmatched = await runNekton(['-c', base, '-r', pattern]);
    assert.equal(unmatched.code, 1);
    assert.ok(
      unmatched.stderr.includes(`resources pattern ${pattern} did not match any files`),
      unmatched.stderr,
    );
    assert.doesNotMatch(unmatched.stderr, NO_STACK);
  });

  it("reports a -r file's lint errors and bad values with that file's name and line", async () => {
    const dir = tempDir();
    const base = baseConfig(dir);
    const linted = join(dir, 'linted.yaml');
    writeFileSync(
      linted,
      `processor_resources:\n  - label: up\n    mapping: 'root = content().uppercase()'\n    wat: 1\n`,
    );
    const lint = await runNekton(['-c', base, '-r', linted]);
    assert.equal(lint.code, 1);
    assert.ok(
      lint.stderr.includes(
        `${linted}(4,1) field wat is invalid when the component type is mapping (processor)`,
      ),
      lint.stderr,
    );
    const badValue = join(dir, 'bad_value.yaml');
    writeFileSync(badValue, 'rate_limit_resources:\n  - label: r\n    local:\n      interval: 1x\n');
    // Lint reports the bad duration too now; --chilled lets the run reach the value's own error.
    const built = await runNekton(['--chilled', '-c', base, '-r', badValue]);
    assert.equal(built.code, 1);
    assert.equal(
      built.stderr.trim().split('\n').at(-1),
      `${badValue}(4,17) rate_limit_resources.0.local.interval: time: unknown unit "x" in duration "1x"`,
    );
  });
});

describe('-r/--resources in streams mode', () => {
  it('refuses a glob that matches nothing', async () => {
    const dir = tempDir();
    const stream = join(dir, 'one.yaml');
    writeFileSync(stream, 'input:\n  generate: {mapping: root = 1}\noutput:\n  drop: {}\n');
    const observability = join(dir, 'obs.yml');
    writeFileSync(observability, 'http: {enabled: false}\n');
    const pattern = join(dir, 'nothing-*.yaml');
    const result = await runNekton(['streams', '-o', observability, '-r', pattern, stream], {
      timeoutMs: 10_000,
    });
    assert.equal(result.code, 1);
    assert.ok(result.stderr.includes(`resources pattern ${pattern} did not match any files`), result.stderr);
  });
});
