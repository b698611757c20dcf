// The `sync_response` processor answers an http_server request with the message as it is at that
// step, while later steps change what goes on to the output.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { eventually, freePort, startNekton, tempDir } from '../helpers/cli.js';

describe('sync_response processor', () => {
  it('answers with the message at its step; the output gets what the later steps made', async () => {
    const dir = tempDir();
    const port = await freePort();
    const out = join(dir, 'out.txt');
    const config = join(dir, 'config.yaml');
    writeFileSync(
      config,
      `http:\n  address: 127.0.0.1:${port}\nlogger:\n  level: warn\ninput:\n  http_server:\n    path: /in\npipeline:\n  processors:\n    - mapping: root = content().uppercase()\n    - sync_response: {}\n    - mapping: root = content() + " stored"\noutput:\n  file:\n    path: ${out}\n    codec: lines\n`,
    );
    const nekton = startNekton(['-c', config]);
    try {
      const reply = await eventually(async () => {
        try {
          const res = await fetch(`http://127.0.0.1:${port}/in`, { method: 'POST', body: 'hello' });
          return { status: res.status, body: await res.text() };
        } catch {
          return undefined;
        }
      }, 10_000);
      assert.deepEqual(reply, { status: 200, body: 'HELLO' });
      assert.equal(readFileSync(out, 'utf8'), 'HELLO stored\n');
    } finally {
      nekton.kill('SIGTERM');
    }
  });
});
