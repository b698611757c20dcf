// `nekton test` from the command line: exit 0 when every test passes, 1 on any failure or when no
// test was found; --verbose names each case; flags the reference refuses are refused.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runNekton, tempDir } from '../../helpers/cli.js';

const CONFIG = `pipeline:
  processors:
    - mapping: 'root = content().uppercase()'
tests:
  - name: shouts
    input_batch: [{ content: hi }]
    output_batches: [[{ content_equals: HI }]]
`;

function dirWith(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('nekton test (CLI)', () => {
  it('exits 0 when every test passes and 1 when one fails', async () => {
    const cwd = dirWith({
      'good.yaml': CONFIG,
      'bad.yaml': CONFIG.replace('content_equals: HI', 'content_equals: LO'),
    });
    const good = await runNekton(['test', 'good.yaml'], { cwd });
    assert.equal(good.code, 0, good.stdout + good.stderr);
    assert.equal(good.stdout, "Test 'good.yaml' succeeded\n");
    const all = await runNekton(['test', './...'], { cwd });
    assert.equal(all.code, 1);
    assert.match(all.stdout, /^Test 'bad.yaml' failed\nTest 'good.yaml' succeeded\n\nFailures:\n/);
    assert.match(
      all.stdout,
      /shouts \[line 5\]:\ninput batch 0 message 0: "hi"\nbatch 0 message 0: content_equals: content mismatch\n {2}expected: LO\n {2}received: HI/,
    );
  });

  it('exits 1 saying so when no tests were found', async () => {
    const cwd = dirWith({ 'plain.yaml': 'pipeline:\n  processors: []\n' });
    const result = await runNekton(['test', './...'], { cwd });
    assert.equal(result.code, 1);
    assert.equal(result.stdout, 'No tests were found\n');
  });

  it('prints each case name with --verbose', async () => {
    const cwd = dirWith({ 'good.yaml': CONFIG });
    const result = await runNekton(['test', '--verbose', 'good.yaml'], { cwd });
    assert.equal(result.code, 0);
    assert.equal(result.stdout, "  - shouts\nTest 'good.yaml' succeeded\n");
  });

  it('refuses --set and an unknown --log level', async () => {
    const cwd = dirWith({ 'good.yaml': CONFIG });
    const set = await runNekton(['test', '-s', 'a=b', 'good.yaml'], { cwd });
    assert.equal(set.code, 1);
    assert.match(set.stderr, /cannot override fields with --set \(-s\) during unit tests/);
    const log = await runNekton(['test', '--log', 'loud', 'good.yaml'], { cwd });
    assert.equal(log.code, 1);
    assert.match(log.stderr, /--log <level>.*expected one of/);
  });

  it('loads -e env files before the tests run', async () => {
    const cwd = dirWith({
      'vars.env': 'NEKTON_UT_GREETING=howdy\n',
      'env.yaml': `pipeline:
  processors:
    - mapping: 'root = "\${NEKTON_UT_GREETING:none} " + env("NEKTON_UT_GREETING").or("none")'
tests:
  - name: greets
    input_batch: [{ content: x }]
    output_batches: [[{ content_equals: howdy howdy }]]
`,
    });
    const result = await runNekton(['test', '-e', 'vars.env', 'env.yaml'], { cwd });
    assert.equal(result.code, 0, result.stdout + result.stderr);
  });

  it('lets components log to stdout at the --log level', async () => {
    const cwd = dirWith({
      'logs.yaml': `pipeline:
  processors:
    - log: { level: INFO, message: 'saw \${! content() }' }
tests:
  - name: logs
    input_batch: [{ content: hi }]
    output_batches: [[{ content_equals: hi }]]
`,
    });
    const quiet = await runNekton(['test', 'logs.yaml'], { cwd });
    assert.doesNotMatch(quiet.stdout + quiet.stderr, /saw hi/);
    const loud = await runNekton(['test', '--log', 'info', 'logs.yaml'], { cwd });
    assert.equal(loud.code, 0);
    assert.match(loud.stdout, /saw hi/);
  });
});
