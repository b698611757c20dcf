// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text with ${ENV} references, not templates
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadConfigFile, loadStreamFile } from '../../src/config/loader.js';
import { applySetOverrides, parseSetOverride } from '../../src/config/set_overrides.js';
import { parseYaml, yamlToValue } from '../../src/config/yaml_document.js';
import { ConfigError } from '../../src/engine/errors.js';
import { acceptAllBloblang, provider } from './helpers.js';

const options = { provider, bloblang: acceptAllBloblang, env: {} };

async function file(name: string, text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'nekton-loader-'));
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

describe('--set overrides', () => {
  it('sets dot paths, indexes arrays and reads values as YAML', () => {
    const parsed = parseYaml(
      'input:\n  generate:\n    mapping: a\npipeline:\n  processors:\n    - bloblang: x\n',
    );
    applySetOverrides(parsed, [
      parseSetOverride('input.generate.count=5'),
      parseSetOverride('pipeline.processors.0.bloblang=root = 2'),
      parseSetOverride('logger.level=DEBUG'),
      parseSetOverride('http.enabled=false'),
    ]);
    assert.deepEqual(yamlToValue(parsed), {
      input: { generate: { mapping: 'a', count: 5 } },
      pipeline: { processors: [{ bloblang: 'root = 2' }] },
      logger: { level: 'DEBUG' },
      http: { enabled: false },
    });
  });

  it('rejects an expression without a path', () => {
    assert.throws(() => parseSetOverride('=x'), /expected <path>=<value>/);
  });
});

describe('loadConfigFile', () => {
  it('interpolates env (env files override the environment), applies sets, lints and converts', async () => {
    const envFile = await file('vars.env', 'MAPPING=root = "from file"\n');
    const path = await file(
      'config.yaml',
      'input:\n  generate:\n    mapping: ${MAPPING}\n    interval: ${INTERVAL:5s}\noutput:\n  drop: {}\n  nope: 1\n',
    );
    const loaded = await loadConfigFile(path, {
      ...options,
      env: { MAPPING: 'root = "from env"' },
      envFiles: [envFile],
      sets: ['input.generate.count=3'],
    });
    const settings = loaded.config.stream!.input.config as Record<string, unknown>;
    assert.equal(settings.mapping, 'root = "from file"');
    assert.equal(settings.interval, '5s');
    assert.equal(settings.count, 3);
    assert.deepEqual(loaded.lints, [
      `${path}(7,1) field nope is invalid when the component type is drop (output)`,
    ]);
  });

  it('expands YAML merge keys, as Benthos does: a component made of `<<: *anchor` lints and loads', async () => {
    const path = await file(
      'merge.yaml',
      'input:\n  generate:\n    mapping: root = 1\npipeline:\n  processors:\n    - &up\n      mapping: root = content().uppercase()\n    - <<: *up\n    - <<: *up\n      label: third\noutput:\n  drop: {}\n',
    );
    const loaded = await loadConfigFile(path, options);
    assert.deepEqual(loaded.lints, []);
    const processors = loaded.config.stream!.pipeline.processors;
    assert.deepEqual(
      processors.map((p) => [p.type, p.label]),
      [
        ['mapping', ''],
        ['mapping', ''],
        ['mapping', 'third'],
      ],
    );
  });

  it('reports missing variables as a (1,1) lint and still loads', async () => {
    const path = await file(
      'missing.yaml',
      'input:\n  generate:\n    mapping: "${NOPE_A}${NOPE_B}"\noutput:\n  drop: {}\n',
    );
    const loaded = await loadStreamFile(path, options);
    assert.deepEqual(loaded.lints, [
      `${path}(1,1) required environment variables were not set: [NOPE_A NOPE_B]`,
    ]);
    assert.equal((loaded.config.input.config as { mapping: string }).mapping, '');
  });

  it('skips lint when the first line disables it', async () => {
    for (const marker of ['# BENTHOS LINT DISABLE', '# NEKTON LINT DISABLE']) {
      const path = await file('off.yaml', `${marker}\noutput:\n  drop: {}\n  nope: 1\n`);
      assert.deepEqual((await loadConfigFile(path, options)).lints, []);
    }
  });

  it('allows a tests section in stream files', async () => {
    const path = await file('s.yaml', 'output:\n  drop: {}\ntests:\n  - name: t\n');
    assert.deepEqual((await loadStreamFile(path, options)).lints, []);
  });

  it('names the file for a missing file and for a YAML error, on one line', async () => {
    await assert.rejects(loadConfigFile('/nonexistent/nekton.yaml', options), (err: unknown) => {
      assert.ok(err instanceof ConfigError);
      assert.equal(err.message, '/nonexistent/nekton.yaml: file not found');
      return true;
    });
    const bad = await file('bad.yaml', 'input:\n  generate: {\n  mapping: [\n');
    await assert.rejects(loadConfigFile(bad, options), (err: unknown) => {
      assert.ok(err instanceof ConfigError);
      assert.ok(err.message.startsWith(`${bad}(`), err.message);
      assert.ok(!err.message.includes('\n'));
      assert.equal(err.file, bad);
      return true;
    });
  });

  it('refuses a second YAML document in plain words', () => {
    assert.throws(
      () => parseYaml('input:\n  stdin: {}\n---\noutput:\n  drop: {}\n'),
      (err: Error) =>
        /line 3: a config is one YAML document/.test(err.message) && !/parseAllDocuments/.test(err.message),
    );
  });

  it('reports duplicate keys as a YAML error', () => {
    assert.throws(() => parseYaml('a: 1\na: 2\n'), /line \d+: Map keys must be unique/);
    assert.throws(() => parseYaml('x:\n  a: 1\n  b: 2\n  a: 3\n'), /line 4: Map keys must be unique/);
    assert.doesNotThrow(() => parseYaml('x: {a: 1}\ny: {a: 1}\n'));
  });

  // The yaml library's own check compares every key with every other one: 40,000 keys took 16 s
  // and 300,000 (a 4 MB request body) blocked the streams server for minutes. Now linear (~1 s
  // here for 100,000); the timeout only catches a return of the quadratic check (~100 s).
  it('parses a map of 100,000 keys, and still finds a duplicate among them', { timeout: 60_000 }, () => {
    const keys = Array.from({ length: 100_000 }, (_, i) => `"k${i}": ${i}`);
    const parsed = parseYaml(`{${keys.join(',\n')}}`);
    assert.equal((parsed.doc.toJS() as Record<string, number>).k99999, 99999);
    assert.throws(() => parseYaml(`{${keys.join(',\n')},\n"k5": 0}`), /line 100001: Map keys must be unique/);
  });
});

/** The message of the ConfigError that loading `text` as a config file throws. */
async function loadError(name: string, text: string): Promise<{ path: string; message: string }> {
  const path = await file(name, text);
  try {
    await loadConfigFile(path, options);
  } catch (err) {
    assert.ok(err instanceof ConfigError, String(err));
    return { path, message: err.message };
  }
  throw new Error(`${name} loaded`);
}

describe('config file errors name their line and column, as lints do', () => {
  it('a YAML syntax error: where the parser found it, not line 1', async () => {
    const cases: [string, string, string][] = [
      [
        'unclosed.yaml',
        'input:\n  generate:\n    count: [1\noutput:\n  drop: {}\n',
        '(3,14) Flow sequence in block collection must be sufficiently indented and end with a ]',
      ],
      ['tab.yaml', 'input:\n\tstdin: {}\n', '(2,1) Tabs are not allowed as indentation'],
      [
        'duplicate.yaml',
        'input:\n  stdin: {}\noutput:\n  drop: {}\ninput:\n  stdin: {}\n',
        '(5,1) Map keys must be unique',
      ],
      [
        'dupjson.json',
        '{\n  "input": {"stdin": {}},\n  "output": {"drop": {}},\n  "output": {"drop": {}}\n}\n',
        '(4,3) Map keys must be unique',
      ],
      ['flow.yaml', 'a: 1\nb: 2\nc: 3\nd: 4\ne: 5\nf: {a: 1,, b: 2}\n', '(6,10) Unexpected , in flow map'],
    ];
    for (const [name, text, expected] of cases) {
      const { path, message } = await loadError(name, text);
      assert.equal(message, `${path}${expected}`);
    }
  });

  it('a request body has no file: the error reads `line N: message`', () => {
    assert.throws(
      () => parseYaml('input:\n  generate:\n    count: [1\n'),
      (err: unknown) =>
        err instanceof ConfigError &&
        err.message ===
          'line 3: Flow sequence in block collection must be sufficiently indented and end with a ]' &&
        err.line === 3,
    );
  });

  it('values of the wrong type: all of them at once, each at its value', async () => {
    const { path, message } = await loadError(
      'types.yaml',
      'input:\n  generate:\n    mapping: root = 1\n    count: "3"\n    batch_size: 1.5\npipeline:\n  threads: "2"\noutput:\n  drop: {}\n',
    );
    assert.deepEqual(message.split('\n'), [
      `${path}(4,12) field count: expected int value, got string`,
      `${path}(5,17) field batch_size: expected int value, got number`,
      `${path}(7,12) field threads: expected int value, got string`,
    ]);
  });

  it('a value the conversion cannot walk past still reports the problems found before it', async () => {
    // The input fails on its type; the output has no known type, which ends the walk (lint,
    // disabled here, would report that first).
    const { path, message } = await loadError(
      'stops.yaml',
      '# NEKTON LINT DISABLE\ninput:\n  generate:\n    mapping: root = 1\n    count: "3"\noutput:\n  nope: {}\n',
    );
    assert.deepEqual(message.split('\n'), [
      `${path}(5,12) field count: expected int value, got string`,
      `${path}(7,3) unable to infer output type from candidates: [nope]`,
    ]);
    // A missing resource stops it too (what follows reads each resource's label).
    const missing = await loadError(
      'missing.yaml',
      '# NEKTON LINT DISABLE\nhttp:\n  enabled: nope\ncache_resources:\n  - null\n',
    );
    assert.deepEqual(missing.message.split('\n'), [
      `${missing.path}(3,12) field enabled: expected bool value, got string`,
      `${missing.path}(5,5) field cache_resources is required`,
    ]);
  });
});
