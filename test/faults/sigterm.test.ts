// SIGTERM to a real nekton process with messages in flight and a slow output: within
// shutdown_timeout every in-flight message is either delivered or nacked to its source, and
// nothing is acknowledged that was not delivered. The source is `http_server` (each request's
// response tells ack = 200 or nack = anything else); the output is `http_client` to a sink that
// answers some requests quickly and leaves the others hanging past the shutdown deadline.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../helpers/cli.js';
import { freePort } from '../helpers/kit.js';

const ROOT = join(import.meta.dirname, '..', '..');

interface Outcome {
  n: number;
  status: number | 'error';
}

function post(port: number, n: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/post', method: 'POST', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ n, status: res.statusCode ?? 0 }));
      res.on('error', () => resolve({ n, status: 'error' }));
    });
    req.on('error', () => resolve({ n, status: 'error' }));
    req.end(JSON.stringify({ n }));
  });
}

describe('SIGTERM with messages in flight', () => {
  it('delivers or nacks everything in flight within shutdown_timeout; acks only what was delivered', async () => {
    const delivered = new Set<number>(); // the sink answered 200 for these
    const seen = new Set<number>();
    const sink = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const { n } = JSON.parse(Buffer.concat(chunks).toString()) as { n: number };
        seen.add(n);
        // Even numbers are slow but finish inside the graceful phase; odd ones hang.
        if (n % 2 === 1) return;
        setTimeout(() => {
          delivered.add(n);
          res.end('ok');
        }, 300);
      });
    });
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
    const sinkPort = (sink.address() as AddressInfo).port;
    const port = await freePort();
    const dir = tempDir('nekton-sigterm-');
    const configPath = join(dir, 'config.yaml');
    writeFileSync(
      configPath,
      `http:
  address: 127.0.0.1:${port}
shutdown_timeout: 3s
logger:
  level: WARN
input:
  http_server:
    path: /post
    timeout: 60s
output:
  http_client:
    url: http://127.0.0.1:${sinkPort}/sink
    verb: POST
    timeout: 60s
    retries: 0
    max_in_flight: 16
`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'run', configPath], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      // Wait until the input answers (a GET is refused with 405 once the endpoint exists).
      const deadline = Date.now() + 20_000;
      for (;;) {
        const probe = await new Promise<number>((resolve) => {
          const req = request(
            { host: '127.0.0.1', port, path: '/post', method: 'GET', agent: false },
            (res) => {
              res.resume();
              resolve(res.statusCode ?? 0);
            },
          );
          req.on('error', () => resolve(0));
          req.end();
        });
        if (probe === 405) break;
        assert.ok(Date.now() < deadline, `nekton did not start: ${output}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const total = 12;
      const outcomes = Array.from({ length: total }, (_, n) => post(port, n));
      const started = Date.now();
      while (seen.size < total && Date.now() - started < 10_000) await new Promise((r) => setTimeout(r, 20));
      assert.equal(seen.size, total, 'not every message reached the sink before SIGTERM');
      child.kill('SIGTERM');
      const code = await Promise.race([
        exited,
        new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 3_000 + 5_000)),
      ]);
      assert.notEqual(code, 'hung', `nekton did not exit after SIGTERM: ${output}`);
      const results = await Promise.all(outcomes);
      for (const { n, status } of results) {
        if (status === 200) assert.ok(delivered.has(n), `message ${n} was acked (200) but never delivered`);
      }
      const acked = results.filter((r) => r.status === 200).map((r) => r.n);
      const nacked = results.filter((r) => r.status !== 200).map((r) => r.n);
      // Every hanging (odd) message was nacked; the quick (even) ones were delivered and acked.
      assert.deepEqual(
        nacked.sort((a, b) => a - b),
        [1, 3, 5, 7, 9, 11],
        output,
      );
      assert.deepEqual(
        acked.sort((a, b) => a - b),
        [0, 2, 4, 6, 8, 10],
        output,
      );
      for (const r of results.filter((x) => x.status !== 200))
        assert.ok(r.status === 'error' || r.status >= 400, `message ${r.n}: status ${r.status}`);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      sink.closeAllConnections();
      await new Promise((resolve) => sink.close(resolve));
    }
  });
});
