// Templates from the command line, run as a user runs them (the built `bin/nekton`): `-t` in
// normal mode (a template of each kind), streams mode, `lint`, `test` and `list`, and
// `nekton template lint` running the templates' own tests.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runNekton, startNekton, tempDir } from '../helpers/cli.js';
import { freePort, waitFor } from '../helpers/kit.js';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const KINDS = join(FIXTURES, 'kinds', '*.yaml');
const USES_ALL = join(FIXTURES, 'uses_all.yaml');

describe('-t/--templates in normal mode', () => {
  it('runs a config that uses an input, processor, cache, rate limit and output template', async () => {
    const out = join(tempDir(), 'out.txt');
    // Two -t flags: the option is repeatable, each a glob.
    const run = await runNekton(
      [
        '-t',
        join(FIXTURES, 'kinds', 'g*.yaml'),
        '--templates',
        join(FIXTURES, 'kinds', '[st]*.yaml'),
        '-c',
        USES_ALL,
      ],
      { env: { OUT_FILE: out } },
    );
    assert.equal(run.code, 0, run.stderr);
    // greeting (count default 2), shout (suffix default "!"), the cache round trip, and the
    // output template's processor that names its label.
    assert.equal(readFileSync(out, 'utf8'), 'HELLO WORLD! via sink\nHELLO WORLD! via sink\n');
  });

  it('without -t the template components are unknown; a template with lint errors stops the run unless --chilled', async () => {
    const unknown = await runNekton(['-c', USES_ALL], { env: { OUT_FILE: join(tempDir(), 'o.txt') } });
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /\(4,1\) unable to infer component type: greeting/);

    const dir = tempDir();
    const template = join(dir, 'hello.yaml');
    writeFileSync(
      template,
      'name: hello\ntype: input\nflavour: mint\nmapping: |\n  root.generate = {"count": 1, "interval": "", "mapping": "root = \\"hi\\""}\n',
    );
    const config = join(dir, 'config.yaml');
    writeFileSync(config, 'http: {enabled: false}\ninput:\n  hello: {}\noutput:\n  stdout: {}\n');
    const stopped = await runNekton(['-t', template, '-c', config]);
    assert.equal(stopped.code, 1);
    assert.ok(stopped.stderr.includes(`${template}(3,1) field flavour not recognised`), stopped.stderr);
    assert.match(stopped.stderr, /shutting down due to linter errors/);
    const chilled = await runNekton(['-t', template, '--chilled', '-c', config]);
    assert.equal(chilled.code, 0, chilled.stderr);
    assert.equal(chilled.stdout, 'hi\n');
  });

  it('refuses a template named like a built-in component', async () => {
    const dir = tempDir();
    const template = join(dir, 'stdin.yaml');
    writeFileSync(template, 'name: stdin\ntype: input\nmapping: root.generate.mapping = "root = 1"\n');
    const run = await runNekton(['-t', template, '-c', USES_ALL]);
    assert.equal(run.code, 1);
    assert.ok(run.stderr.includes(`template ${template}: input stdin is a built-in component`), run.stderr);
  });
});

describe('nekton template lint', () => {
  it('passes templates whose tests pass (FILE: OK with --verbose)', async () => {
    const run = await runNekton(['template', 'lint', '--verbose', join(FIXTURES, 'kinds', '...')]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /kinds\/to_lines\.yaml: OK\n/);
    assert.equal(run.stderr, '');
  });

  it('reports a failing template test and a bad field at their lines, exit 1', async () => {
    const failing = join(FIXTURES, 'lint', 'failing_test.yaml');
    const bad = join(FIXTURES, 'lint', 'bad_field.yaml');
    const run = await runNekton(['template', 'lint', failing, bad]);
    assert.equal(run.code, 1);
    assert.equal(
      run.stderr,
      [
        `${failing}(14,1) test 'three times': mismatch between expected and actual resulting config:`,
        '  mapping: expected "root = content().repeat(2)", got "root = content().repeat(3)"',
        `${bad}(5,1) value integer is not a valid option for this field`,
        `template ${bad}(4,1) field 0: unrecognised type: integer`,
        '',
      ].join('\n'),
    );
  });
});

describe('-t with lint, test and list', () => {
  it('nekton lint -t knows the template components and checks their fields', async () => {
    const env = { OUT_FILE: '/tmp/x' };
    const clean = await runNekton(['lint', '-t', KINDS, USES_ALL], { env });
    assert.equal(clean.code, 0, clean.stderr);
    const dir = tempDir();
    const config = join(dir, 'c.yaml');
    writeFileSync(config, 'input:\n  greeting:\n    whom: x\noutput:\n  drop: {}\n');
    const linted = await runNekton(['lint', '-t', KINDS, config]);
    assert.equal(linted.code, 1);
    // Lint problems go to stdout, as `nekton lint` prints them.
    assert.equal(
      linted.stdout,
      `${config}(3,1) field whom not recognised\n${config}(3,1) field who is required\n`,
    );
  });

  it('nekton test -t runs config tests that use a template', async () => {
    const config = join(FIXTURES, 'shouted_test.yaml');
    const run = await runNekton(['test', '-t', KINDS, config]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /shouted_test\.yaml' succeeded/);
  });

  it("nekton test -t runs the templates' own tests too: a failing one fails the run", async () => {
    const config = join(FIXTURES, 'shouted_test.yaml');
    const failing = join(FIXTURES, 'lint', 'failing_test.yaml');
    const run = await runNekton(['test', '-t', KINDS, '-t', failing, config]);
    assert.equal(run.code, 1);
    assert.match(run.stdout, /shouted_test\.yaml' succeeded/);
    assert.ok(run.stderr.startsWith(`${failing}(14,1) test 'three times': mismatch`), run.stderr);
  });

  it('nekton list -t shows the templates with the built-ins (and filters by status)', async () => {
    const list = await runNekton(['list', '-t', KINDS, '--format', 'json']);
    assert.equal(list.code, 0, list.stderr);
    const byKind = JSON.parse(list.stdout) as Record<string, string[]>;
    assert.ok(byKind.inputs!.includes('greeting') && byKind.inputs!.includes('stdin'));
    assert.ok(byKind.processors!.includes('shout'));
    assert.ok(byKind.outputs!.includes('to_lines'));
    assert.ok(byKind.caches!.includes('scratch'));
    assert.ok(byKind['rate-limits']!.includes('gentle'));
    const beta = await runNekton(['list', '-t', KINDS, '--status', 'beta', 'inputs']);
    assert.match(beta.stdout, /- greeting\n/);
    const plain = await runNekton(['list', 'inputs']);
    assert.doesNotMatch(plain.stdout, /greeting/);
  });
});

describe('-t in streams mode', () => {
  it('a stream posted to the API can use template components; metrics_mapping renames their metrics', async () => {
    const dir = tempDir();
    const port = await freePort();
    const obs = join(dir, 'obs.yaml');
    writeFileSync(obs, `http:\n  address: 127.0.0.1:${port}\nlogger:\n  level: WARN\n`);
    const out = join(dir, 'out.txt');
    const child = startNekton(['streams', '-o', obs, '-t', KINDS]);
    const api = `http://127.0.0.1:${port}`;
    try {
      await waitFor(async () => (await fetch(`${api}/ready`)).ok, { timeoutMs: 20_000, message: 'the API' });
      const stream = `input:\n  greeting:\n    who: api\n    count: 0\n    interval: 20ms\npipeline:\n  processors:\n    - shout: {suffix: "?"}\noutput:\n  label: api_out\n  to_lines:\n    path: ${out}\n`;
      const posted = await fetch(`${api}/streams/s1`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/yaml' },
        body: stream,
      });
      assert.equal(posted.status, 200, await posted.text());
      const written = await waitFor(
        () => {
          try {
            return readFileSync(out, 'utf8').split('\n').length > 2 && readFileSync(out, 'utf8');
          } catch {
            return false;
          }
        },
        { timeoutMs: 10_000, message: 'lines in the output file' },
      );
      assert.equal(written.split('\n')[0], 'HELLO API? via api_out');
      // The greeting template's metrics_mapping turns input_* into greeting_*.
      const stats = Object.keys((await (await fetch(`${api}/streams/s1/stats`)).json()) as object);
      assert.ok(
        stats.some((k) => k.startsWith('greeting_received{')),
        stats.join(' '),
      );
      assert.ok(!stats.some((k) => k.startsWith('input_')), stats.join(' '));
      assert.ok(
        stats.some((k) => k.startsWith('output_sent{')),
        stats.join(' '),
      );
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    assert.doesNotMatch(child.output(), /level=error/, child.output());
  });
});
