// The reported crash with a streaming http_server output: a message holding 1e400 through
// `root = this` threw inside the client's handler and ended the process. Through the built CLI:
// a client on the stream endpoint gets ids 1 to 3, id 2 with 1e400 as written.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startNekton, tempDir } from '../helpers/cli.js';
import { freePort, waitFor } from '../helpers/kit.js';

/** Reads the stream endpoint until `until` shows in the body (or the request fails). */
function readStream(port: number, until: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/get/stream' }, (res) => {
      let body = '';
      res.on('data', (d) => {
        body += d;
        if (body.includes(until)) {
          req.destroy();
          resolve(body);
        }
      });
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error('stream read timed out')));
    req.end();
  });
}

describe('values to a streaming http_server output (built CLI)', () => {
  it('streams an entry holding 1e400 intact and stays up', async () => {
    const dir = tempDir('nekton-values-http-');
    const data = join(dir, 'in.jsonl');
    writeFileSync(data, '{"id":1}\n{"id":2,"a":1e400}\n{"id":3}\n');
    const port = await freePort();
    const config = join(dir, 'config.yaml');
    writeFileSync(
      config,
      `http:\n  enabled: false\nlogger:\n  level: warn\ninput:\n  file:\n    paths: [ ${JSON.stringify(data)} ]\npipeline:\n  processors:\n    - mapping: root = this\noutput:\n  http_server:\n    address: 127.0.0.1:${port}\n`,
    );
    const nekton = startNekton(['-c', config]);
    try {
      const body = await waitFor(() => readStream(port, '{"id":3}').catch(() => ''), {
        message: 'the stream',
        timeoutMs: 15_000,
      });
      assert.equal(body, '{"id":1}{"a":1e400,"id":2}{"id":3}');
      // Still running, or done with every message delivered: never a crash.
      assert.ok(nekton.exitCode === null || nekton.exitCode === 0, nekton.output());
    } finally {
      nekton.kill('SIGTERM');
    }
  });
});
