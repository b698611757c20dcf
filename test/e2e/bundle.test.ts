// bin/nekton runs the bundled CLI with V8's code cache (scripts/bundle.mjs): the cache must be
// made by the build, ignored when it belongs to another bundle or is damaged, and packages the
// bundle imports at run time must still load.
// It also reads the bundle and its cache without making glibc's malloc raise its thresholds.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../helpers/cli.js';

const root = join(import.meta.dirname, '..', '..');
const bundle = join(root, 'dist', 'bundle', 'nekton.cjs');

/** A copy of bin/ and dist/bundle/ whose bundle and cache the test may change. */
function installedCopy(): { dir: string; bundle: string; cache: string } {
  const dir = tempDir('nekton-bundle-');
  mkdirSync(join(dir, 'bin'));
  mkdirSync(join(dir, 'dist', 'bundle'), { recursive: true });
  for (const file of ['nekton', 'package.json'])
    copyFileSync(join(root, 'bin', file), join(dir, 'bin', file));
  for (const file of ['nekton.cjs', 'nekton.cjs.cache'])
    copyFileSync(join(root, 'dist', 'bundle', file), join(dir, 'dist', 'bundle', file));
  const { mtime } = statSync(bundle);
  utimesSync(join(dir, 'dist', 'bundle', 'nekton.cjs'), mtime, mtime);
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  return {
    dir,
    bundle: join(dir, 'dist', 'bundle', 'nekton.cjs'),
    cache: join(dir, 'dist', 'bundle', 'nekton.cjs.cache'),
  };
}

function run(
  dir: string,
  args: string[],
  input = '',
  timeoutMs = 20_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(dir, 'bin', 'nekton'), ...args], { stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

/** Maps three lines from stdin: proves the bundle ran, with or without its cache. */
async function assertMapsLines(dir: string): Promise<void> {
  const config = join(dir, 'map.yaml');
  writeFileSync(
    config,
    'http: { enabled: false }\ninput: { stdin: {} }\npipeline:\n  processors:\n    - mapping: root = content().uppercase()\noutput: { stdout: {} }\n',
  );
  const result = await run(dir, ['-c', config], 'a\nb\nc\n');
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, 'A\nB\nC\n');
}

describe('the bundled CLI and its code cache', () => {
  it('the build records a cache stamped with the bundle it was made for', () => {
    const { size, mtimeMs } = statSync(bundle);
    const cache = readFileSync(`${bundle}.cache`);
    const stamp = `nekton code cache ${size} ${mtimeMs}\n`;
    assert.equal(cache.subarray(0, stamp.length).toString(), stamp);
    assert.ok(cache.length > stamp.length + 100_000, `a cache of ${cache.length} bytes holds little code`);
  });

  it('runs from a copy with its cache', async () => {
    await assertMapsLines(installedCopy().dir);
  });

  it('ignores a cache made for another build of the bundle', async () => {
    const copy = installedCopy();
    // Same length, so only the stamp tells the builds apart: V8 itself checks just the length, and
    // would run the old build's compiled code (and print its help text).
    const text = readFileSync(copy.bundle, 'utf8');
    const edited = text.replace(
      'runs Benthos / Redpanda Connect configs',
      'runs BENTHOS / Redpanda Connect configs',
    );
    assert.equal(edited.length, text.length);
    writeFileSync(copy.bundle, edited);
    const result = await run(copy.dir, ['--help']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /runs BENTHOS \/ Redpanda Connect configs/);
  });

  it('survives a damaged cache (V8 refuses it and compiles)', async () => {
    const copy = installedCopy();
    const cache = readFileSync(copy.cache);
    const stampEnd = cache.indexOf('\n') + 1;
    cache.fill(0x5a, stampEnd, stampEnd + 64);
    writeFileSync(copy.cache, cache);
    await assertMapsLines(copy.dir);
  });

  // glibc raises its mmap threshold (and its trim threshold, to twice that) to the size of any
  // mmapped block it frees. bin/nekton once read the 1.8 MB bundle into a Buffer: once collected,
  // V8's worker threads each kept up to 3.6 MB of freed memory in their malloc arenas (W6: 119% of
  // the empty process's RSS after deleting 1,000 streams). After start and a full GC, a 1 MB
  // Buffer must still be mmapped: a new anonymous mapping, not room taken in the heap.
  it('leaves glibc malloc mmapping a 1 MB Buffer after start-up and a full GC', {
    skip:
      process.platform !== 'linux' ||
      !(process.report.getReport() as { header: { glibcVersionRuntime?: string } }).header
        .glibcVersionRuntime,
  }, async () => {
    const dir = tempDir('nekton-malloc-');
    const preload = join(dir, 'probe.cjs');
    writeFileSync(
      preload,
      `const { readFileSync } = require('node:fs');
function anonymousBytes() {
  let total = 0;
  for (const line of readFileSync('/proc/self/maps', 'latin1').split('\\n')) {
    const m = /^([0-9a-f]+)-([0-9a-f]+) rw-p 0+ 00:00 0\\s*$/.exec(line);
    if (m) total += parseInt(m[2], 16) - parseInt(m[1], 16);
  }
  return total;
}
setTimeout(() => {
  require('node:v8').setFlagsFromString('--expose-gc');
  const gc = require('node:vm').runInNewContext('gc');
  gc();
  gc();
  setTimeout(() => {
    const before = anonymousBytes();
    const buffer = Buffer.allocUnsafeSlow(1_000_000);
    const after = anonymousBytes();
    process.stderr.write('mapped ' + (after - before) + ' for ' + buffer.length + '\\n');
    process.exit(0);
  }, 200);
}, 1000);
`,
    );
    const config = join(dir, 'idle.yaml');
    writeFileSync(
      config,
      'http: { enabled: false }\ninput: { generate: { interval: 1s, mapping: root = "x" } }\noutput: { drop: {} }\n',
    );
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        ['--require', preload, join(root, 'bin', 'nekton'), '-c', config],
        {
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      child.on('error', reject);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, stderr });
      });
    });
    assert.equal(result.code, 0, result.stderr);
    const mapped = Number(/mapped (-?\d+) for 1000000/.exec(result.stderr)?.[1]);
    assert.ok(mapped >= 1_000_000, `a 1 MB Buffer added ${mapped} bytes of mappings: ${result.stderr}`);
  });

  it('says what to do when the bundle was not built', async () => {
    const dir = tempDir('nekton-unbuilt-');
    mkdirSync(join(dir, 'bin'));
    for (const file of ['nekton', 'package.json'])
      copyFileSync(join(root, 'bin', file), join(dir, 'bin', file));
    const result = await run(dir, ['--version']);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /nekton\.cjs is missing: run `npm run build` first/);
  });

  it('imports a connector client package at run time (amqplib, when the output connects)', async () => {
    const copy = installedCopy();
    const config = join(copy.dir, 'amqp.yaml');
    // Port 1 refuses connections: the client must load to get as far as dialling.
    writeFileSync(
      config,
      'http: { enabled: false }\ninput: { generate: { count: 1, interval: "", mapping: root = "x" } }\noutput:\n  amqp_0_9: { urls: [ "amqp://127.0.0.1:1" ], exchange: x }\n',
    );
    const result = await run(copy.dir, ['-c', config], '', 3_000);
    assert.match(result.stderr, /ECONNREFUSED/, result.stderr);
    assert.doesNotMatch(result.stderr, /dynamic import/i);
  });
});
