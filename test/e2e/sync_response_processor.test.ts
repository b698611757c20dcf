// The `sync_response` processor answers an http_server request with the message as it is at that
// step, while later steps change what goes on to the output.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startNekton, tempDir } from '../helpers/cli.js';
import { freePort, waitFor } from '../helpers/kit.js';

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
      const reply = await waitFor(async () => {
        try {
          const res = await fetch(`http://127.0.0.1:${port}/in`, {
            method: 'POST',
            body: 'hello',
            signal: AbortSignal.timeout(5000),
          });
          return { status: res.status, body: await res.text() };
        } catch {
          return undefined;
        }
      });
      assert.deepEqual(reply, { status: 200, body: 'HELLO' });
      assert.equal(readFileSync(out, 'utf8'), 'HELLO stored\n');
    } finally {
      nekton.kill('SIGTERM');
    }
  });

  it('answers even when a sync_response header value holds a line break or non-Latin text', async () => {
    const dir = tempDir();
    const port = await freePort();
    const config = join(dir, 'config.yaml');
    writeFileSync(
      config,
      `http:\n  address: 127.0.0.1:${port}\nlogger:\n  level: warn\ninput:\n  http_server:\n    path: /in\n    sync_response:\n      headers:\n        X-Echo: '\${! content() }'\noutput:\n  sync_response: {}\n`,
    );
    const nekton = startNekton(['-c', config]);
    try {
      const send = (body: string) =>
        waitFor(async () => {
          try {
            const res = await fetch(`http://127.0.0.1:${port}/in`, {
              method: 'POST',
              body,
              signal: AbortSignal.timeout(5000),
            });
            return { status: res.status, echo: res.headers.get('x-echo'), body: await res.text() };
          } catch {
            return undefined;
          }
        });
      // Before, setting the header threw and the client got no answer at all.
      assert.deepEqual(await send('a\nb'), { status: 200, echo: 'a b', body: 'a\nb' });
      const unicode = await send('日本');
      assert.equal(unicode?.status, 200);
      assert.equal(Buffer.from(unicode?.echo ?? '', 'latin1').toString('utf8'), '日本');
    } finally {
      nekton.kill('SIGTERM');
    }
  });
});
