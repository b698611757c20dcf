// The example plugins (examples/plugins/), each run by the built CLI as a user would load it:
// with --plugin, and all three through the config's own `plugins:` list.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runNekton, tempDir } from '../helpers/cli.js';

const examples = join(import.meta.dirname, '..', '..', 'examples', 'plugins');
const plugin = (file: string) => ['--plugin', join(examples, file)];

function config(text: string): string {
  const file = join(tempDir('nekton-plugins-'), 'config.yaml');
  writeFileSync(file, `http: { enabled: false }\nlogger: { level: WARN }\n${text}`);
  return file;
}

describe('example plugins', () => {
  it('countdown input: counts down, then the run ends', async () => {
    const file = config('input:\n  countdown: { from: 2, label: go }\noutput:\n  stdout: {}\n');
    const result = await runNekton([...plugin('countdown_input.js'), '-c', file]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
      [
        { n: 2, label: 'go' },
        { n: 1, label: 'go' },
      ],
    );
  });

  it('redact processor: hides the listed words and counts them in metadata', async () => {
    const file = config(
      'pipeline:\n  processors:\n    - redact: { words: [secret, key] }\n    - mapping: root = content().string() + " " + @redacted\n',
    );
    const result = await runNekton([...plugin('redact_processor.js'), '-c', file], {
      input: 'the Secret key\nnothing here\n',
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'the ****** *** 2\nnothing here 0\n');
  });

  it('append_file output: appends each message as a line', async () => {
    const out = join(tempDir('nekton-plugins-out-'), 'out.txt');
    writeFileSync(out, 'before\n');
    const file = config(`output:\n  append_file: { path: ${JSON.stringify(out)} }\n`);
    const result = await runNekton([...plugin('append_file_output.js'), '-c', file], { input: 'a\nb\n' });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(readFileSync(out, 'utf8'), 'before\na\nb\n');
  });

  it('all three from the config-level plugins: list, and listed by nekton list', async () => {
    const out = join(tempDir('nekton-plugins-out-'), 'out.jsonl');
    const result = await runNekton(['-c', join(examples, 'pipeline.yaml')], { env: { OUT: out } });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(
      readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
      [3, 2, 1].map((n) => ({ n, label: '****** launch' })),
    );
    const listed = await runNekton([
      ...plugin('redact_processor.js'),
      'list',
      '--format',
      'json',
      'processors',
    ]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /"redact"/);
  });
});
