// Fairness under hostile input, in a real nekton process: while one stream decompresses bzip2
// bombs, /ping and a second stream keep answering, and SIGTERM still ends the process promptly.
// Before, one 4 KB bomb held the single event loop for minutes.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../helpers/cli.js';
import { freePort } from '../helpers/kit.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BOMB = join(ROOT, 'test', 'fixtures', 'compression', 'zeros-6200000000.bz2');

/** Milliseconds until a GET answers 200, or Infinity when it fails or takes over `limitMs`. */
function timedGet(port: number, path: string, limitMs: number): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false, timeout: limitMs }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve(res.statusCode === 200 ? performance.now() - started : Number.POSITIVE_INFINITY),
      );
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(Number.POSITIVE_INFINITY));
    req.end();
  });
}

// Generous bounds: the bombs held the loop for ~150 s each; a loaded machine may pause for a second.
const PING_BOUND_MS = 3000;
const EXIT_BOUND_MS = 20_000;

describe('fairness with a bomb in one stream', () => {
  it('keeps /ping and a second stream answering, and exits promptly on SIGTERM', async () => {
    const dir = tempDir('nekton-fairness-');
    const bombs = join(dir, 'bombs');
    const out = join(dir, 'ticks');
    mkdirSync(bombs);
    mkdirSync(out);
    for (let i = 0; i < 12; i++) copyFileSync(BOMB, join(bombs, `bomb-${i}.bz2`));
    const port = await freePort();
    // Streams mode: the bomb stream and the ticking stream share only the process.
    const observability = join(dir, 'observability.yaml');
    writeFileSync(observability, `http:\n  address: 127.0.0.1:${port}\nlogger:\n  level: error\n`);
    const streams = join(dir, 'streams');
    mkdirSync(streams);
    writeFileSync(
      join(streams, 'bombs.yaml'),
      `input:
  file:
    paths: [ ${bombs}/*.bz2 ]
    scanner:
      to_the_end: {}
pipeline:
  processors:
    - decompress:
        algorithm: bzip2
output:
  drop: {}
`,
    );
    writeFileSync(
      join(streams, 'ticks.yaml'),
      `input:
  generate:
    interval: 20ms
    mapping: 'root = counter().string()'
output:
  file:
    path: ${out}/ticks.txt
    codec: lines
`,
    );
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', 'streams', '-o', observability, streams],
      {
        cwd: ROOT,
        // A 64 MiB limit keeps each bomb's work (and the drain at shutdown) to a second or two.
        env: { ...process.env, NEKTON_MAX_DECOMPRESSED_BYTES: String(64 * 1024 * 1024) },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
    });
    const exited = new Promise<number>((resolve) => child.on('exit', () => resolve(performance.now())));
    try {
      // Wait for the server, then ping for 4 s while the bombs are being decompressed.
      let first = Number.POSITIVE_INFINITY;
      for (let i = 0; i < 200 && first === Number.POSITIVE_INFINITY; i++) {
        first = await timedGet(port, '/ping', 1000);
        if (first === Number.POSITIVE_INFINITY) await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(first < Number.POSITIVE_INFINITY, `nekton did not start: ${output}`);
      const pings: number[] = [];
      const until = performance.now() + 4000;
      while (performance.now() < until) {
        pings.push(await timedGet(port, '/ping', PING_BOUND_MS));
        await new Promise((r) => setTimeout(r, 50));
      }
      const slowest = Math.max(...pings);
      assert.ok(slowest < PING_BOUND_MS, `a /ping took ${slowest} ms (${pings.length} pings)`);
      // The second stream keeps writing while the bombs are decompressed.
      const before = readdirSync(out).length > 0 ? readFileSync(join(out, 'ticks.txt'), 'utf8').length : 0;
      await new Promise((r) => setTimeout(r, 500));
      const after = readFileSync(join(out, 'ticks.txt'), 'utf8').length;
      assert.ok(after > before, 'the second stream stopped writing while the bombs were decompressed');
    } finally {
      const signalled = performance.now();
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), EXIT_BOUND_MS + 5000);
      const at = await exited;
      clearTimeout(timer);
      assert.ok(at - signalled < EXIT_BOUND_MS, `SIGTERM took ${Math.round(at - signalled)} ms`);
      // The bombs were being decompressed all along: stopped by the shutdown or by the limit.
      assert.match(output, /decompression stopped|exceeds the limit/, output);
    }
  });
});
