// A password_hash that can never match stops nekton at start with the reason, and `nekton lint`
// reports it (the reference starts and then answers 500 to every request).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runNekton, tempDir } from '../helpers/cli.js';
import { freePort } from '../helpers/kit.js';

function configWithHash(port: number, hash: string): string {
  const file = join(tempDir(), 'config.yaml');
  writeFileSync(
    file,
    `http:
  address: 127.0.0.1:${port}
  basic_auth:
    enabled: true
    username: admin
    password_hash: "${hash}"
    algorithm: sha256
input:
  generate: { count: 1, mapping: 'root = 1' }
output:
  drop: {}
`,
  );
  return file;
}

describe('a password_hash that can never match', { timeout: 60_000 }, () => {
  it('is reported by nekton lint and refused at start', async () => {
    const file = configWithHash(await freePort(), 'not*base64');
    const lint = await runNekton(['lint', file]);
    assert.equal(lint.code, 1, lint.stdout + lint.stderr);
    assert.match(lint.stdout, /invalid password_hash : illegal base64 data at input byte 3/);
    const run = await runNekton(['-c', file], { timeoutMs: 20_000 });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stderr + run.stdout, /invalid password_hash/);
  });
});
