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
      assert.ok(err.message.startsWith(`${bad}: line `));
      assert.ok(!err.message.includes('\n'));
      assert.equal(err.file, bad);
      return true;
    });
  });

  it('reports duplicate keys as a YAML error', () => {
    assert.throws(() => parseYaml('a: 1\na: 2\n'), /line \d+: Map keys must be unique/);
  });
});
