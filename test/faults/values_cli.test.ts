// The outside sender's inputs through the built CLI: a JSON number a float64 cannot hold, deep
// nesting and values JSON cannot carry must neither crash the process nor lose ids 1 and 3; id 2
// is delivered intact (1e400 round-trips, as in the reference) or flagged as an error.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runNekton, tempDir } from '../helpers/cli.js';

const INPUT = '{"id":1}\n{"id":2,"a":1e400}\n{"id":3}\n';

/** Runs stdin -> processors -> stdout with `input` and returns the exit code and output lines. */
async function pipe(
  processors: string,
  input = INPUT,
  scanner = '',
): Promise<{ code: number | null; lines: string[]; stderr: string }> {
  const dir = tempDir('nekton-values-');
  const config = join(dir, 'config.yaml');
  const scannerYaml = scanner ? `    scanner:\n      ${scanner}: {}\n` : '    {}\n';
  writeFileSync(
    config,
    `http:\n  enabled: false\nlogger:\n  level: warn\ninput:\n  stdin:\n${scannerYaml}pipeline:\n  processors:\n${processors}output:\n  stdout: {}\n`,
  );
  const res = await runNekton(['-c', config], { input, timeoutMs: 30_000 });
  return { code: res.code, lines: res.stdout.split('\n').filter((l) => l !== ''), stderr: res.stderr };
}

describe('values on the data path (built CLI)', () => {
  it('mapping `root = this` writes 1e400 back as written and keeps ids 1 and 3', async () => {
    const { code, lines, stderr } = await pipe('    - mapping: root = this\n');
    assert.equal(code, 0, stderr);
    assert.deepEqual(lines, ['{"id":1}', '{"a":1e400,"id":2}', '{"id":3}']);
  });

  it('the json_array scanner without a mapping keeps 1e400 too', async () => {
    const { code, lines, stderr } = await pipe(
      '    []\n',
      '[{"id":1},{"id":2,"a":1e400},{"id":3}]',
      'json_array',
    );
    assert.equal(code, 0, stderr);
    assert.deepEqual(lines, ['{"id":1}', '{"a":1e400,"id":2}', '{"id":3}']);
  });

  it('the json_documents scanner without a mapping keeps 1e400 and ends with stdin', async () => {
    const { code, lines, stderr } = await pipe('    []\n', INPUT, 'json_documents');
    assert.equal(code, 0, stderr);
    assert.deepEqual(lines, ['{"id":1}', '{"a":1e400,"id":2}', '{"id":3}']);
  });

  it('4 KB of JSON nested deeper than 2,000 passes a mapping intact', async () => {
    const deep = `{"a":${'['.repeat(2_040)}${']'.repeat(2_040)},"id":2}`;
    const { code, lines, stderr } = await pipe(
      '    - mapping: root = this\n',
      `{"id":1}\n${deep}\n{"id":3}\n`,
    );
    assert.equal(code, 0, stderr);
    assert.deepEqual(lines, ['{"id":1}', deep, '{"id":3}']);
  });

  // Each expression makes a value JSON cannot carry (or, for parse_json, refuses to): the mapping
  // fails for id 2 only, `catch` sees the flag, and the process goes on.
  const failing = [
    '"NaN".number()',
    '"1e308".number() * 10',
    '"[1e999]".parse_json()',
    '".inf".parse_yaml()',
    '"x".repeat(300000000)',
  ];
  for (const expr of failing) {
    it(`id 2 is flagged when a mapping makes ${expr}`, async () => {
      const mapping = `root = this\nroot.v = if this.id == 2 { ${expr} } else { 0 }`;
      const processors =
        `    - mapping: ${JSON.stringify(mapping)}\n` +
        `    - catch:\n        - mapping: 'root = {"id": this.id, "flagged": error() != null}'\n`;
      const { code, lines, stderr } = await pipe(processors);
      assert.equal(code, 0, stderr);
      assert.deepEqual(lines, ['{"id":1,"v":0}', '{"flagged":true,"id":2}', '{"id":3,"v":0}']);
    });
  }

  it('range(0, this.n) with n = 3e8 fails that message, not the process', async () => {
    const input = '{"id":1,"n":3}\n{"id":2,"n":300000000}\n{"id":3,"n":2}\n';
    const processors =
      `    - mapping: 'root = {"id": this.id, "r": range(0, this.n).length()}'\n` +
      `    - catch:\n        - mapping: 'root = {"id": this.id, "flagged": true}'\n`;
    const { code, lines, stderr } = await pipe(processors, input);
    assert.equal(code, 0, stderr);
    assert.deepEqual(lines, ['{"id":1,"r":3}', '{"flagged":true,"id":2}', '{"id":3,"r":2}']);
  });
});
