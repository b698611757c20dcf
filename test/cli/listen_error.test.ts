// The HTTP server's address already taken: one line naming it, exit 1, in both modes.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runNekton, tempDir } from '../helpers/cli.js';

async function occupyPort(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

describe('HTTP address already in use', () => {
  it('normal mode says it cannot listen there, in one line, and exits 1', async () => {
    const { server, port } = await occupyPort();
    try {
      const dir = tempDir();
      const config = join(dir, 'config.yaml');
      writeFileSync(
        config,
        `http:\n  address: 127.0.0.1:${port}\ninput:\n  generate: {interval: 1s, mapping: root = 1}\noutput:\n  drop: {}\n`,
      );
      const result = await runNekton(['-c', config], { timeoutMs: 15_000 });
      assert.equal(result.code, 1, result.stderr);
      const lines = result.stderr.trim().split('\n');
      assert.equal(
        lines.at(-1),
        `cannot listen for HTTP requests at 127.0.0.1:${port}: address already in use`,
        result.stderr,
      );
      assert.doesNotMatch(result.stderr, /\n\s+at /, 'printed a stack trace');
    } finally {
      server.close();
    }
  });

  it('streams mode says the same', async () => {
    const { server, port } = await occupyPort();
    try {
      const dir = tempDir();
      const observability = join(dir, 'obs.yaml');
      writeFileSync(observability, `http:\n  address: 127.0.0.1:${port}\n`);
      const result = await runNekton(['streams', '-o', observability], { timeoutMs: 15_000 });
      assert.equal(result.code, 1, result.stderr);
      assert.equal(
        result.stderr.trim().split('\n').at(-1),
        `cannot listen for HTTP requests at 127.0.0.1:${port}: address already in use`,
      );
    } finally {
      server.close();
    }
  });
});
