// `nekton lint` takes Benthos's path forms: `dir/...` walks a tree, a quoted glob is expanded by
// nekton, and (nekton's choice) a plain directory means the config files directly in it.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runNekton, tempDir } from '../helpers/cli.js';

/** d/good.yaml, d/top.yaml (bad), d/sub/deep.yml (bad), d/sub/deeper.json (bad), d/notes.txt. */
function tree(): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'd', 'sub'), { recursive: true });
  writeFileSync(join(dir, 'd', 'good.yaml'), 'input:\n  stdin: {}\noutput:\n  drop: {}\n');
  writeFileSync(join(dir, 'd', 'top.yaml'), 'input:\n  stdin: {}\noutput:\n  drop: {}\ntop_level: 1\n');
  writeFileSync(join(dir, 'd', 'sub', 'deep.yml'), 'input:\n  stdin: {}\ndeep: 1\n');
  writeFileSync(join(dir, 'd', 'sub', 'deeper.json'), '{"input": {"stdin": {}}, "deeper": 1}\n');
  writeFileSync(join(dir, 'd', 'notes.txt'), 'not a config: 1\n');
  return dir;
}

const TOP = 'd/top.yaml(5,1) field top_level not recognised';
const DEEP = 'd/sub/deep.yml(3,1) field deep not recognised';
const DEEPER = 'd/sub/deeper.json(1,1) field deeper not recognised';

async function lint(cwd: string, ...args: string[]): Promise<{ code: number | null; lines: string[] }> {
  const result = await runNekton(['lint', ...args], { cwd });
  return { code: result.code, lines: (result.stdout + result.stderr).trim().split('\n').filter(Boolean) };
}

describe('nekton lint paths', () => {
  it('walks d/... and ./... recursively for .yaml, .yml and .json files', async () => {
    const cwd = tree();
    for (const arg of ['d/...', './d/...']) {
      const result = await lint(cwd, arg);
      assert.equal(result.code, 1);
      assert.deepEqual(result.lines, [DEEP, DEEPER, TOP], arg);
    }
    const here = await lint(join(cwd, 'd'), './...');
    assert.deepEqual(here.lines, [
      'sub/deep.yml(3,1) field deep not recognised',
      'sub/deeper.json(1,1) field deeper not recognised',
      'top.yaml(5,1) field top_level not recognised',
    ]);
  });

  it('expands a quoted glob itself', async () => {
    const result = await lint(tree(), 'd/*.yaml');
    assert.equal(result.code, 1);
    assert.deepEqual(result.lines, [TOP]);
  });

  it('lints the config files directly in a plain directory, not below it', async () => {
    const cwd = tree();
    const result = await lint(cwd, 'd');
    assert.equal(result.code, 1);
    assert.deepEqual(result.lines, [TOP]);
    const clean = await lint(cwd, 'd/sub/deep.yml', 'd/good.yaml');
    assert.deepEqual(clean.lines, [DEEP]);
  });

  it('names a glob, a directory or a tree that holds no config file, and exits 1', async () => {
    const cwd = tree();
    mkdirSync(join(cwd, 'empty'));
    const result = await lint(cwd, 'd/*.nothing', 'empty', 'missing/...', 'd/good.yaml');
    assert.equal(result.code, 1);
    assert.deepEqual(result.lines, [
      'd/*.nothing: pattern did not match any files',
      'empty: directory holds no .yaml, .yml or .json files',
      'missing: no such directory',
    ]);
  });
});

describe('nekton and YAML warnings', () => {
  it('reports a collection used as a key at its line, with no Node warning from the YAML library', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'key.yaml'),
      'input:\n  generate:\n    ? [a, b]\n    : c\n    mapping: root = 1\noutput:\n  drop: {}\n',
    );
    for (const args of [
      ['lint', 'key.yaml'],
      ['-c', 'key.yaml'],
    ]) {
      const result = await runNekton(args, { cwd: dir });
      const out = result.stdout + result.stderr;
      assert.match(out, /key\.yaml\(3,1\) field \["a","b"\] not recognised/, args.join(' '));
      assert.doesNotMatch(out, /Warning: Keys with collection values/, args.join(' '));
      assert.equal(result.code, 1, args.join(' '));
    }
  });
});
