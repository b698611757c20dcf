// `nekton list` as the reference's: several kinds by their plural names, metrics, tracers and
// Bloblang functions and methods, --status, and the json, jsonschema and cue formats.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import type { Ajv as AjvClass } from 'ajv';
import { NEKTON_BIN, runNekton } from '../helpers/cli.js';

const require = createRequire(import.meta.url);

describe('nekton list', () => {
  it("prints the kinds asked for, under the reference's titles", async () => {
    const result = await runNekton(['list', 'caches', 'rate_limit']);
    assert.equal(result.code, 0);
    assert.match(
      result.stdout,
      /^Caches:\n(?: {2}- \w+\n)* {2}- file\n {2}- lru\n(?: {2}- \w+\n)* {2}- memory\n {2}- multilevel\n[\s\S]*\nRate Limits:\n {2}- local\n/,
    );
    assert.doesNotMatch(result.stdout, /Inputs:/);
  });

  it('says which reference processors nekton will not have, and why', async () => {
    const result = await runNekton(['list', 'processors']);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /Not available in nekton:\n {2}- awk: no faithful awk interpreter/);
    assert.doesNotMatch((await runNekton(['list', 'caches'])).stdout, /Not available/);
  });

  it('lists metrics, tracers and Bloblang functions and methods', async () => {
    const result = await runNekton([
      'list',
      '--format',
      'json',
      'metrics',
      'tracers',
      'bloblang-functions',
      'bloblang-methods',
    ]);
    assert.equal(result.code, 0);
    const listed = JSON.parse(result.stdout) as Record<string, string[]>;
    assert.deepEqual(Object.keys(listed), ['metrics', 'tracers', 'bloblang-functions', 'bloblang-methods']);
    assert.ok(listed.metrics?.includes('prometheus'));
    assert.deepEqual(listed.tracers, ['none']);
    assert.ok(listed['bloblang-functions']?.includes('uuid_v4'));
    assert.ok(listed['bloblang-methods']?.includes('uppercase'));
  });

  it('filters by --status', async () => {
    const stable = JSON.parse(
      (await runNekton(['list', '--format', 'json', '--status', 'stable', 'processors'])).stdout,
    );
    const deprecated = JSON.parse(
      (await runNekton(['list', '--format', 'json', '--status', 'deprecated', 'processors'])).stdout,
    );
    assert.ok(stable.processors.includes('mapping'));
    assert.ok(!deprecated.processors.includes('mapping'));
    const bad = await runNekton(['list', '--status', 'shiny']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /unknown status 'shiny'/);
  });

  it('refuses an unknown format or kind', async () => {
    const format = await runNekton(['list', '--format', 'yaml']);
    assert.equal(format.code, 1);
    assert.match(format.stderr, /unknown format 'yaml': expected one of text, json, jsonschema, cue/);
    const kind = await runNekton(['list', 'widgets']);
    assert.equal(kind.code, 1);
    assert.match(kind.stderr, /unknown component kind 'widgets'/);
  });

  it('prints a JSON Schema that accepts a good config and rejects a wrong one', async () => {
    const result = await runNekton(['list', '--format', 'jsonschema']);
    assert.equal(result.code, 0);
    const Ajv = (require('ajv') as { Ajv: typeof AjvClass }).Ajv;
    const validate = new Ajv({ strict: false }).compile(JSON.parse(result.stdout));
    const good = {
      input: { label: 'in', stdin: { scanner: { lines: {} } }, processors: [{ mapping: 'root = this' }] },
      pipeline: { threads: 2, processors: [{ bloblang: 'root = this' }] },
      output: { drop: {} },
    };
    assert.equal(validate(good), true, JSON.stringify(validate.errors));
    assert.equal(validate({ input: { nope: {} } }), false);
    assert.equal(validate({ pipeline: { threads: 'many' } }), false);
  });

  it('prints Bloblang function parameters as jsonschema, optionally of named functions', async () => {
    const result = await runNekton(['list', '--format', 'jsonschema', 'bloblang-functions', 'env']);
    assert.equal(result.code, 0);
    const listed = JSON.parse(result.stdout);
    assert.deepEqual(
      listed['bloblang-functions'].map((f: { name: string }) => f.name),
      ['env'],
    );
    assert.deepEqual(listed['bloblang-functions'][0].params[0], { name: 'name', type: 'string' });
  });

  it('prints CUE definitions of the config', async () => {
    const result = await runNekton(['list', '--format', 'cue']);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /^package nekton\n\n#Config: \{\n/);
    assert.match(result.stdout, /\tinput\?: #Input\n/);
    assert.match(result.stdout, /\n#Input: \{[\s\S]*? \| \{stdin: \{[\s\S]*?\n\n#Output: /);
    assert.match(result.stdout, /\n#RateLimit: /);
  });

  it('stops quietly with status 141 when the reader of its output goes away', async () => {
    // The JSON Schema is far larger than a pipe's buffer: writes go on after `head` has left.
    const script = `"${process.execPath}" "${NEKTON_BIN}" list --format jsonschema | head -c 10 >/dev/null; echo "status=\${PIPESTATUS[0]}"`;
    const child = spawn('bash', ['-c', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    await new Promise((resolve) => child.on('exit', resolve));
    assert.equal(stdout, 'status=141\n');
    assert.equal(stderr, '');
  });
});
