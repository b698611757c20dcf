// bin/nekton runs the bundled CLI with V8's code cache (scripts/bundle.mjs): the cache must be
// made by the build, ignored when it belongs to another bundle or is damaged, and packages the
// bundle imports at run time must still load.
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
