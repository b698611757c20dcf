// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} references in mappings, not JS templates
// `nekton blobl`'s flags, with the reference's names and meanings: --raw, --pretty, --input,
// --threads, --max-token-length, -e, and `${VAR}` in the mapping.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runNekton, tempDir } from '../helpers/cli.js';

describe('nekton blobl flags', () => {
  it('--raw / -r: `this` is each line as a string, never parsed as JSON', async () => {
    const input = 'plain text\n{"a":1}\n';
    const raw = await runNekton(['blobl', '--raw', 'root = this.length()'], { input });
    assert.equal(raw.stderr, '');
    assert.equal(raw.stdout, '10\n7\n');
    const short = await runNekton(['blobl', '-r', 'root = this.uppercase()'], { input });
    assert.equal(short.stdout, 'PLAIN TEXT\n{"A":1}\n');
    // Without it the first line is not JSON, so `this` fails.
    const parsed = await runNekton(['blobl', 'root = this.length()'], { input });
    assert.equal(parsed.code, 1);
    assert.match(parsed.stderr, /failed to execute mapping/);
  });

  it('--pretty / -p: structured results indented by two spaces; strings stay raw', async () => {
    const input = '{"a":{"b":[1,2]},"s":"x"}\n';
    const pretty = await runNekton(['blobl', '--pretty', 'root = this'], { input });
    assert.equal(pretty.stdout, '{\n  "a": {\n    "b": [\n      1,\n      2\n    ]\n  },\n  "s": "x"\n}\n');
    const untouched = await runNekton(['blobl', '-p', 'meta x = "y"'], { input });
    assert.equal(untouched.stdout, pretty.stdout);
    const text = await runNekton(['blobl', '-p', 'root = this.s'], { input });
    assert.equal(text.stdout, 'x\n');
    const compact = await runNekton(['blobl', 'root = this.a'], { input });
    assert.equal(compact.stdout, '{"b":[1,2]}\n');
  });

  it('--input / -i: reads documents from a file instead of stdin', async () => {
    const dir = tempDir();
    const file = join(dir, 'docs.jsonl');
    writeFileSync(file, '{"n":1}\n{"n":2}\n');
    const long = await runNekton(['blobl', '--input', file, 'root = this.n * 10'], { input: '{"n":7}\n' });
    assert.equal(long.stdout, '10\n20\n');
    const short = await runNekton(['blobl', '-i', file, 'root = this.n + 1']);
    assert.equal(short.stdout, '2\n3\n');
    const missing = await runNekton(['blobl', '-i', join(dir, 'nope.jsonl'), 'root = this']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /failed to read input: .*nope\.jsonl/);
  });

  it('--threads / -t: accepted (whole number of at least 1); results keep their order', async () => {
    const input = Array.from({ length: 50 }, (_, i) => `{"i":${i}}`).join('\n');
    const result = await runNekton(['blobl', '--threads', '4', 'root = this.i'], { input });
    assert.equal(result.code, 0);
    assert.equal(result.stdout, `${Array.from({ length: 50 }, (_, i) => i).join('\n')}\n`);
    const short = await runNekton(['blobl', '-t', '2', 'root = this.i'], { input: '{"i":3}\n' });
    assert.equal(short.stdout, '3\n');
    const bad = await runNekton(['blobl', '-t', '0', 'root = this']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /--threads.*at least 1/);
  });

  it('--max-token-length: a longer line stops the run with an error, shorter ones pass', async () => {
    const input = 'short\nthis line is long\nlater\n';
    const result = await runNekton(['blobl', '-r', '--max-token-length', '10', 'root = this'], { input });
    assert.equal(result.code, 1);
    assert.equal(result.stdout, 'short\n');
    assert.match(result.stderr, /longer than --max-token-length \(10 bytes\)/);
    const roomy = await runNekton(['blobl', '-r', '--max-token-length', '100', 'root = this'], { input });
    assert.equal(roomy.stdout, input);
    // The reference's default is 64 KiB.
    const big = `"${'x'.repeat(70_000)}"\n`;
    const defaulted = await runNekton(['blobl', 'root = this.length()'], { input: big });
    assert.equal(defaulted.code, 1);
    assert.match(defaulted.stderr, /65536 bytes/);
  });

  it('-e and ${VAR}: env files feed env() and ${VAR} references in the mapping', async () => {
    const dir = tempDir();
    const envFile = join(dir, 'vars.env');
    writeFileSync(envFile, 'GREETING=hello\nTARGET=world\n');
    const result = await runNekton(['blobl', '-e', envFile, 'root = "${GREETING} " + env("TARGET")'], {
      input: '{}\n',
    });
    assert.equal(result.stderr, '');
    assert.equal(result.stdout, 'hello world\n');
    const missing = await runNekton(['blobl', 'root = "${NEKTON_SURELY_UNSET_VAR}"'], { input: '{}\n' });
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /failed to replace env vars: .*NEKTON_SURELY_UNSET_VAR/);
  });

  it('refuses a mapping file and an inline mapping together', async () => {
    const dir = tempDir();
    const file = join(dir, 'm.blobl');
    writeFileSync(file, 'root = 1');
    const result = await runNekton(['blobl', '-f', file, 'root = 2'], { input: '{}\n' });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /unable to execute both a file mapping and an inline mapping/);
    const fromFile = await runNekton(['blobl', '--file', file], { input: '{}\n' });
    assert.equal(fromFile.stdout, '1\n');
  });

  it('global flags still work before the subcommand', async () => {
    const dir = tempDir();
    const envFile = join(dir, 'vars.env');
    writeFileSync(envFile, 'WHO=root-flag\n');
    const result = await runNekton(['-e', envFile, 'blobl', 'root = env("WHO")'], { input: '{}\n' });
    assert.equal(result.stdout, 'root-flag\n');
  });
});
