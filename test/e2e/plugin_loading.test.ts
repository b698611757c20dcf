// Plugins from the CLI: a bad plugin is a clear error at start naming the module; plugin
// components lint with their fields; `nekton plugin init` makes a package whose test passes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runNekton, startNekton, tempDir } from '../helpers/cli.js';
import { freePort } from '../helpers/ports.js';
import { waitFor } from '../helpers/wait.js';

const root = join(import.meta.dirname, '..', '..');

describe('plugins from the CLI', () => {
  it('names a plugin that is missing, throws at import, or takes a built-in name', async () => {
    const dir = tempDir('nekton-bad-plugins-');
    writeFileSync(join(dir, 'boom.mjs'), 'throw new Error("exploded at import");\n');
    writeFileSync(
      join(dir, 'clash.mjs'),
      'export default (nekton) => nekton.registerProcessor({ name: "mapping", summary: "", fields: [], build: () => ({ process: (m) => m }) });\n',
    );
    const config = join(dir, 'config.yaml');
    writeFileSync(config, 'plugins: [./not_here.js]\n');
    const cases: Array<[string[], RegExp]> = [
      [['--plugin', join(dir, 'boom.mjs'), 'list'], /^plugin .*boom\.mjs: exploded at import$/m],
      [
        ['--plugin', join(dir, 'clash.mjs'), 'list'],
        /^plugin .*clash\.mjs: .*processor mapping: a built-in has that name/m,
      ],
      [
        ['--plugin', 'no-such-nekton-plugin', 'list'],
        /^plugin no-such-nekton-plugin: no such file or package/m,
      ],
      [['-c', config], /^plugin \.\/not_here\.js: .*not_here\.js does not exist$/m],
      [['streams', '-o', config], /^plugin \.\/not_here\.js: .*does not exist$/m],
    ];
    for (const [args, expected] of cases) {
      const result = await runNekton(args);
      assert.equal(result.code, 1, args.join(' '));
      assert.match(result.stderr, expected, args.join(' '));
    }
  });

  it('streams mode runs a stream file that uses a plugin given with --plugin', async () => {
    const dir = tempDir('nekton-streams-plugin-');
    const out = join(dir, 'out.txt');
    const observability = join(dir, 'observability.yaml');
    writeFileSync(
      observability,
      `http: { address: 127.0.0.1:${await freePort()} }\nlogger: { level: WARN }\n`,
    );
    writeFileSync(
      join(dir, 'hidden.yaml'),
      [
        'input:',
        '  generate: { count: 1, interval: "", mapping: root = "a secret here" }',
        'pipeline:',
        '  processors:',
        '    - redact: { words: [secret] }',
        'output:',
        `  file: { path: ${JSON.stringify(out)}, codec: lines }`,
        '',
      ].join('\n'),
    );
    const plugin = join(root, 'examples', 'plugins', 'redact_processor.js');
    const child = startNekton(['--plugin', plugin, 'streams', '-o', observability, join(dir, 'hidden.yaml')]);
    try {
      const written = await waitFor(() => existsSync(out) && readFileSync(out, 'utf8'), {
        message: () => `the stream's output (${child.output()})`,
      });
      assert.equal(written, 'a ****** here\n');
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('lints a plugin component by its fields', async () => {
    const dir = tempDir('nekton-lint-plugin-');
    const config = join(dir, 'config.yaml');
    writeFileSync(config, 'pipeline:\n  processors:\n    - redact:\n        wordz: [a]\n');
    const plugin = join(root, 'examples', 'plugins', 'redact_processor.js');
    const result = await runNekton(['--plugin', plugin, 'lint', config]);
    assert.equal(result.code, 1);
    assert.match(result.stdout + result.stderr, /config\.yaml\(4,\d+\) field wordz not recognised/);
  });

  it('plugin init makes a package whose own test passes and whose processor the CLI loads', async () => {
    const work = tempDir('nekton-plugin-init-');
    const made = await runNekton(['plugin', 'init', 'shout-plugin'], { cwd: work });
    assert.equal(made.code, 0, made.stderr);
    const dir = join(work, 'shout-plugin');
    // The package's devDependency on nekton, installed: this checkout (built).
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(root, join(dir, 'node_modules', 'nekton'));
    const test = spawnSync(process.execPath, ['--test', 'test/'], { cwd: dir, encoding: 'utf8' });
    assert.equal(test.status, 0, test.stdout + test.stderr);
    const listed = await runNekton(['--plugin', join(dir, 'index.js'), 'list', 'processors']);
    assert.match(listed.stdout, /shout_plugin/);
    const again = await runNekton(['plugin', 'init', 'shout-plugin'], { cwd: work });
    assert.equal(again.code, 1);
    assert.match(again.stderr, /already exists/);
  });
});
