// A finite input whose messages end up in a batching output nested in a composite output: the
// partial last batch must be written when the input ends, or normal mode never finishes (the
// acks of those messages would wait for a batch that cannot fill).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runNekton, tempDir } from '../helpers/cli.js';

// A broker with a batching policy (count only, no period) around a file output: the member that
// holds a partial batch until it is flushed.
const member = (path: string) =>
  `broker:\n  batching:\n    count: 100\n  outputs:\n    - file: { path: ${path}, codec: lines }\n`
    .replace(/^/gm, '        ')
    .trimStart();

const wrappers: Record<string, (path: string) => string> = {
  broker: (p) => `broker:\n    pattern: fan_out\n    outputs:\n      - ${member(p)}`,
  switch: (p) =>
    `switch:\n    cases:\n      - check: 'false'\n        output: { drop: {} }\n      - output:\n          ${member(p).replace(/\n {8}/g, '\n            ')}`,
  fallback: (p) => `fallback:\n    - ${member(p).replace(/\n {8}/g, '\n      ')}`,
  retry: (p) => `retry:\n    output:\n      ${member(p).replace(/\n {8}/g, '\n        ')}`,
};

describe('composite outputs forward the end-of-input flush', () => {
  for (const [name, wrap] of Object.entries(wrappers)) {
    it(`${name}: 150 messages into a member batching by 100 are all written and nekton exits 0`, async () => {
      const dir = tempDir();
      const out = join(dir, 'out.txt');
      const config = join(dir, 'config.yaml');
      writeFileSync(
        config,
        `http:\n  enabled: false\ninput:\n  generate:\n    count: 150\n    interval: ""\n    mapping: root = counter()\noutput:\n  ${wrap(out)}`,
      );
      const result = await runNekton(['-c', config], { timeoutMs: 30_000 });
      assert.equal(result.code, 0, result.stderr);
      const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
      assert.equal(lines.length, 150);
      assert.deepEqual(
        lines.map(Number).sort((a, b) => a - b),
        Array.from({ length: 150 }, (_, i) => i + 1),
      );
    });
  }
});
