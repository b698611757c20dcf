// The reference's `lint` flags: --deprecated, --labels, --skip-env-var-check and --verbose.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runNekton, tempDir } from '../helpers/cli.js';

const CONFIG = `input:
  kafka_franz:
    seed_brokers: [ "\${NEKTON_LINT_FLAGS_UNSET}" ]
    topics: [ a ]
    consumer_group: g
pipeline:
  processors:
    - mapping: root = this
    - label: named
      mapping: root = this
    - resource: shared
output:
  drop: {}
parallel: true
`;

function workdir(): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'a.yaml'), CONFIG);
  writeFileSync(join(dir, 'ok.yaml'), 'input:\n  stdin: {}\noutput:\n  drop: {}\n');
  return dir;
}

async function lint(cwd: string, ...args: string[]): Promise<{ code: number | null; lines: string[] }> {
  const result = await runNekton(['lint', ...args], { cwd });
  return { code: result.code, lines: (result.stdout + result.stderr).trim().split('\n').filter(Boolean) };
}

describe('nekton lint flags', () => {
  it('reports an unset environment variable unless --skip-env-var-check', async () => {
    const cwd = workdir();
    assert.deepEqual(await lint(cwd, 'a.yaml'), {
      code: 1,
      lines: ['a.yaml(1,1) required environment variables were not set: [NEKTON_LINT_FLAGS_UNSET]'],
    });
    assert.deepEqual(await lint(cwd, '--skip-env-var-check', 'a.yaml'), { code: 0, lines: [] });
  });

  it('reports deprecated components and fields with --deprecated', async () => {
    const result = await lint(workdir(), '--skip-env-var-check', '--deprecated', 'a.yaml');
    assert.equal(result.code, 1);
    assert.deepEqual(result.lines, [
      'a.yaml(2,1) component kafka_franz is deprecated',
      'a.yaml(14,1) field parallel is deprecated',
    ]);
  });

  it('reports components without a label with --labels (a resource reference needs none)', async () => {
    const result = await lint(workdir(), '--skip-env-var-check', '--labels', 'a.yaml');
    assert.equal(result.code, 1);
    assert.deepEqual(result.lines, [
      'a.yaml(2,1) label is required for kafka_franz',
      'a.yaml(8,1) label is required for mapping',
      'a.yaml(13,1) label is required for drop',
    ]);
  });

  it('prints FILE: OK or FILE: FAILED per file with --verbose, before the lints', async () => {
    const result = await lint(workdir(), '--verbose', 'a.yaml', 'ok.yaml');
    assert.equal(result.code, 1);
    assert.deepEqual(result.lines, [
      'a.yaml: FAILED',
      'ok.yaml: OK',
      'a.yaml(1,1) required environment variables were not set: [NEKTON_LINT_FLAGS_UNSET]',
    ]);
  });
});
