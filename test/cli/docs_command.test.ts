// `nekton docs DIR` where DIR cannot be a directory: one line, exit 1.
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runNekton, tempDir } from '../helpers/cli.js';

describe('nekton docs', () => {
  it('writes the pages into a new directory', async () => {
    const target = join(tempDir(), 'components');
    const result = await runNekton(['docs', target]);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(existsSync(join(target, 'inputs', 'generate.md')));
  });

  it('reports a file in the way in one line and exits 1', async () => {
    const file = join(tempDir(), 'afile');
    writeFileSync(file, '');
    const result = await runNekton(['docs', file]);
    assert.equal(result.code, 1);
    assert.equal(
      result.stderr,
      `nekton docs: cannot write the component reference to ${file}: ${file}/buffers: not a directory\n`,
    );
  });
});
