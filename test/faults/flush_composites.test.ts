// flush() through every composite output, in process: 150 writes into a member that batches by
// 100 leave 50 waiting for a batch that cannot fill; the end-of-input flush must reach that member
// through broker (every pattern), switch, fallback, retry and dynamic, so all 150 are written
// and acknowledged. (test/e2e/flush_composite runs some of these through the CLI.)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { spec as brokerSpec } from '../../src/components/outputs/broker.js';
import { registry } from '../../src/components/registry.js';
import { schemaProvider } from '../../src/config/schema.js';
import { toServiceConfig } from '../../src/config/service_config.js';
import { buildLineIndex, parseYaml, yamlToValue } from '../../src/config/yaml_document.js';
import type { Output } from '../../src/engine/component.js';
import { Message } from '../../src/message/message.js';
import { tempDir } from '../helpers/cli.js';
import { createTestEnv } from '../helpers/context.js';

const provider = schemaProvider(registry);
const TOTAL = 150;

/** The batching member, as YAML indented by `pad` spaces (its first line unindented). */
function member(path: string, pad: number): string {
  const lines = [
    'broker:',
    '  batching:',
    '    count: 100',
    '  outputs:',
    `    - file: { path: ${path}, codec: lines }`,
  ];
  return lines.map((l, i) => (i === 0 ? l : ' '.repeat(pad) + l)).join('\n');
}

const composites: Record<string, (path: string) => string> = {};
// Every pattern the broker offers (greedy must let a batching member hold up to its `count`
// writes, or the batch never fills).
const brokerPatterns = brokerSpec.fields.find((f) => f.name === 'pattern')?.options ?? [];
assert.ok(brokerPatterns.includes('greedy'), 'the broker spec lists its patterns');
for (const pattern of brokerPatterns) {
  composites[`broker ${pattern}`] = (p) =>
    `broker:\n  pattern: ${pattern}\n  outputs:\n    - ${member(p, 6)}`;
}
composites.switch = (p) =>
  `switch:\n  cases:\n    - check: 'false'\n      output: { drop: {} }\n    - output:\n        ${member(p, 8)}`;
composites.fallback = (p) => `fallback:\n  - ${member(p, 4)}`;
composites.retry = (p) => `retry:\n  output:\n    ${member(p, 4)}`;
composites.dynamic = (p) => `dynamic:\n  outputs:\n    only:\n      ${member(p, 6)}`;

async function build(outputYaml: string): Promise<Output> {
  const yaml = `input: { generate: { mapping: root = 1 } }\noutput:\n${outputYaml.replace(/^/gm, '  ')}\n`;
  const parsed = parseYaml(yaml, 'flush.yaml');
  const config = toServiceConfig(yamlToValue(parsed), { provider, lines: buildLineIndex(parsed) });
  if (!config.stream) throw new Error('no stream sections');
  // `dynamic` registers its CRUD endpoints; they are not used here.
  const endpoints = { register: () => undefined };
  return createTestEnv({ endpoints }).builder.buildOutput(config.stream.output);
}

describe('flush() reaches the batching member of every composite output', () => {
  for (const [name, composite] of Object.entries(composites)) {
    it(`${name}: the partial batch is written and every write settles`, async () => {
      const path = join(tempDir(), 'out.txt');
      const output = await build(composite(path));
      let settled = 0;
      const writes = Array.from({ length: TOTAL }, (_, i) =>
        output.write([new Message(String(i))]).then(() => {
          settled++;
        }),
      );
      await Promise.all(writes.slice(0, 100));
      assert.ok(output.flush, `${name} has no flush()`);
      await output.flush();
      // The acks ride on promise chains (retry wrapper, fan-out): let them all run, no timers.
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(settled, TOTAL, 'writes still waiting after the flush');
      await Promise.all(writes);
      const lines = readFileSync(path, 'utf8').trimEnd().split('\n').map(Number);
      assert.deepEqual(
        lines.sort((a, b) => a - b),
        Array.from({ length: TOTAL }, (_, i) => i),
      );
      await output.close();
    });
  }
});
