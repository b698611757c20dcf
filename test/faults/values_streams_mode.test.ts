// The reported streams-mode failure: one stream's message holding 1e400 (or a mapping making NaN)
// threw in a writer and ended the process, so every other stream died with it. Through the
// built CLI: that stream delivers ids 1 to 3 (id 2 intact or flagged) and the other keeps going.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startNekton, tempDir } from '../helpers/cli.js';
import { freePort, waitFor } from '../helpers/kit.js';

const lines = (path: string) =>
  existsSync(path)
    ? readFileSync(path, 'utf8')
        .split('\n')
        .filter((l) => l)
    : [];

describe('values in streams mode (built CLI)', () => {
  it('a stream meeting 1e400 and NaN delivers ids 1 to 3, and the other stream keeps running', async () => {
    const dir = tempDir('nekton-values-streams-');
    const input = join(dir, 'in.jsonl');
    const values = join(dir, 'values.out');
    const ticks = join(dir, 'ticks.out');
    writeFileSync(input, '{"id":1}\n{"id":2,"a":1e400}\n{"id":3}\n');
    const port = await freePort();
    writeFileSync(join(dir, 'service.yaml'), `http:\n  address: 127.0.0.1:${port}\nlogger:\n  level: warn\n`);
    const streams = join(dir, 'streams');
    mkdirSync(streams);
    writeFileSync(
      join(streams, 'values.yaml'),
      `input:\n  file:\n    paths: [ ${JSON.stringify(input)} ]\npipeline:\n  processors:\n    - mapping: |\n        root = this\n        root.v = if this.id == 3 { "NaN".number() } else { 0 }\n    - catch:\n        - mapping: 'root = this.merge({"flagged": true})'\noutput:\n  file:\n    path: ${JSON.stringify(values)}\n    codec: lines\n`,
    );
    writeFileSync(
      join(streams, 'ticker.yaml'),
      `input:\n  generate:\n    interval: 20ms\n    mapping: 'root = {"tick": count("ticks")}'\noutput:\n  file:\n    path: ${JSON.stringify(ticks)}\n    codec: lines\n`,
    );
    const nekton = startNekton(['streams', '-o', join(dir, 'service.yaml'), streams]);
    try {
      await waitFor(() => lines(values).length === 3, {
        message: 'three messages from the values stream',
        timeoutMs: 15_000,
      });
      assert.deepEqual(lines(values), [
        '{"id":1,"v":0}',
        '{"a":1e400,"id":2,"v":0}',
        '{"flagged":true,"id":3}',
      ]);
      const before = lines(ticks).length;
      await waitFor(() => lines(ticks).length > before + 3, {
        message: 'the other stream still ticking',
        timeoutMs: 15_000,
      });
      assert.equal(nekton.exitCode, null, nekton.output());
    } finally {
      nekton.kill('SIGTERM');
    }
  });
});
