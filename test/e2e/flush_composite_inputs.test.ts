// A file input (which waits for its acks before it ends, to replay nacks) inside a composite
// input, feeding a batching output: the input's exhaustion must reach the stream through the
// wrapper, or the partial last batch is never written and normal mode never finishes.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runNekton, tempDir } from '../helpers/cli.js';

/** A file input of `lines` lines, as YAML indented for where it goes. */
const fileInput = (path: string) => `file:\n  paths: [ ${path} ]\n`;
const indent = (text: string, spaces: number) => text.replace(/^(?=.)/gm, ' '.repeat(spaces));

/** Each wrapper takes the input YAML of one or two files and returns the `input:` and any resources. */
const wrappers: Record<string, (files: string[]) => string> = {
  'input processors': ([a]) =>
    `input:\n${indent(fileInput(a!), 2)}  processors:\n    - mapping: root = content().uppercase()\n`,
  broker: (files) =>
    `input:\n  broker:\n    inputs:\n${files.map((f) => `      - ${indent(fileInput(f), 8).trimStart()}`).join('')}`,
  'broker with batching': ([a]) =>
    `input:\n  broker:\n    batching:\n      count: 1000\n    inputs:\n      - ${indent(fileInput(a!), 8).trimStart()}`,
  sequence: (files) =>
    `input:\n  sequence:\n    inputs:\n${files.map((f) => `      - ${indent(fileInput(f), 8).trimStart()}`).join('')}`,
  resource: ([a]) =>
    `input:\n  resource: source\ninput_resources:\n  - label: source\n${indent(fileInput(a!), 4)}`,
};

/** Two files for the wrappers that take several inputs, one for the others. */
const takesTwo = new Set(['broker', 'sequence']);

describe('composite inputs pass on the exhaustion of a file input', () => {
  for (const [name, wrap] of Object.entries(wrappers)) {
    it(`${name}: every line reaches an output batching by 100 and nekton exits 0`, async () => {
      const dir = tempDir();
      const files = (takesTwo.has(name) ? ['a', 'b'] : ['a']).map((n) => {
        const path = join(dir, `${n}.txt`);
        writeFileSync(path, Array.from({ length: 150 }, (_, i) => `${n}${i}\n`).join(''));
        return path;
      });
      const out = join(dir, 'out.txt');
      const config = join(dir, 'config.yaml');
      writeFileSync(
        config,
        `http:\n  enabled: false\n${wrap(files)}output:\n  broker:\n    batching:\n      count: 100\n    outputs:\n      - file: { path: ${out}, codec: lines }\n`,
      );
      const result = await runNekton(['-c', config], { timeoutMs: 30_000 });
      assert.equal(result.code, 0, `${result.stderr}\n${readFileSync(config, 'utf8')}`);
      const expected = files.flatMap((_, f) => Array.from({ length: 150 }, (_, i) => `${'ab'[f]}${i}`));
      const written = readFileSync(out, 'utf8').trimEnd().split('\n');
      const normalised = name === 'input processors' ? expected.map((l) => l.toUpperCase()) : expected;
      assert.deepEqual(written.sort(), normalised.sort());
    });
  }
});
