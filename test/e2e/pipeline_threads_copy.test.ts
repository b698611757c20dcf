// A file -> processors -> file copy of 100k lines on two pipeline threads, through bin/nekton: every
// line arrives exactly once. (A crossing per message once made this copy take 20 s; the time is
// not asserted, the content is.) Order across threads is not kept, as in the reference. `nekton -c`
// starts the thread while it reads the config: the stream takes that one.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runNekton, tempDir } from '../helpers/cli.js';

const LINES = 100_000;

function copyConfig(input: string, output: string, processor: string, level = 'WARN'): string {
  return `http:\n  enabled: false\nlogger:\n  level: ${level}\ninput:\n  file:\n    paths: [ ${JSON.stringify(input)} ]\npipeline:\n  threads: 2\n  processors:\n    - ${processor}\noutput:\n  file:\n    path: ${JSON.stringify(output)}\n    codec: lines\n`;
}

async function copy(
  processor: string,
  options: { level?: string; env?: Record<string, string> } = {},
): Promise<{ lines: string[]; logs: string }> {
  const dir = tempDir();
  const input = join(dir, 'in.jsonl');
  const output = join(dir, 'out.jsonl');
  const config = join(dir, 'config.yaml');
  const docs = Array.from({ length: LINES }, (_, i) => JSON.stringify({ id: i, name: `doc ${i}` }));
  writeFileSync(input, `${docs.join('\n')}\n`);
  writeFileSync(config, copyConfig(input, output, processor, options.level));
  const result = await runNekton(['-c', config], {
    // `1` puts even a `noop` on the thread (left alone it stays on the main thread: nothing to spread).
    env: options.env ?? { NEKTON_PIPELINE_WORKERS: '1' },
    timeoutMs: 300_000,
  });
  assert.equal(result.code, 0, result.stderr);
  return { lines: readFileSync(output, 'utf8').trimEnd().split('\n'), logs: result.stdout + result.stderr };
}

function assertEachOnce(lines: string[], idOf: (line: string) => number): void {
  assert.equal(lines.length, LINES);
  const seen = new Uint8Array(LINES);
  for (const line of lines) {
    const id = idOf(line);
    assert.ok(Number.isInteger(id) && id >= 0 && id < LINES, `unexpected line ${line}`);
    assert.equal(seen[id], 0, `line ${id} written twice`);
    seen[id] = 1;
  }
}

describe('pipeline threads copy a file', () => {
  it('with the thread nekton started while it read the config', async () => {
    assert.ok(availableParallelism() >= 2, 'this machine has one core: no thread to start');
    const { lines, logs } = await copy(`mapping: 'root = {"id": this.id}'`, { level: 'INFO', env: {} });
    assert.match(
      logs,
      /the processors run on the main thread and 1 worker thread\(s\) \(1 started while the config was read\)/,
    );
    assertEachOnce(lines, (l) => (JSON.parse(l) as { id: number }).id);
  });

  it('noop: 100k lines, each exactly once and unchanged', async () => {
    const { lines } = await copy('noop: {}');
    assertEachOnce(lines, (l) => (JSON.parse(l) as { id: number }).id);
    for (const line of lines) {
      const { id } = JSON.parse(line) as { id: number };
      assert.equal(line, JSON.stringify({ id, name: `doc ${id}` }));
    }
  });

  it('mapping: 100k results, each exactly once', async () => {
    const { lines } = await copy(`mapping: 'root = {"id": this.id, "twice": this.id * 2}'`);
    assertEachOnce(lines, (l) => (JSON.parse(l) as { id: number }).id);
    for (const line of lines) {
      const doc = JSON.parse(line) as { id: number; twice: number };
      assert.equal(doc.twice, doc.id * 2);
    }
  });
});
