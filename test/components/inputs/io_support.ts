// Inputs built from YAML as `nekton run` would (linted first), and reading helpers for the io tests.
import { registry } from '../../../src/components/registry.js';
import { lintServiceConfig } from '../../../src/config/lint_config.js';
import { schemaProvider } from '../../../src/config/schema.js';
import { toServiceConfig } from '../../../src/config/service_config.js';
import { buildLineIndex, parseYaml, yamlToValue } from '../../../src/config/yaml_document.js';
import type { Input, Transaction } from '../../../src/engine/component.js';
import type { ResourceManager } from '../../../src/engine/resources.js';
import { createTestEnv } from '../../helpers/context.js';

const provider = schemaProvider(registry);

/** The lint messages of a whole config. */
export function lintYaml(yaml: string): string[] {
  return lintServiceConfig(parseYaml(yaml, 'test.yaml'), { provider }).map((l) => l.message);
}

/** Lints (failing on any lint) and builds the `input:` of a config (output: drop is added). */
export async function inputOf(
  inputYaml: string,
  options: { resources?: ResourceManager } = {},
): Promise<Input> {
  const yaml = `input:\n${inputYaml.replace(/^/gm, '  ')}\noutput:\n  drop: {}\n`;
  const lints = lintYaml(yaml);
  if (lints.length > 0) throw new Error(`config does not lint: ${lints.join('; ')}`);
  const parsed = parseYaml(yaml, 'test.yaml');
  const config = toServiceConfig(yamlToValue(parsed), { provider, lines: buildLineIndex(parsed) });
  if (!config.stream) throw new Error('config has no stream');
  const { builder } = createTestEnv(options);
  return builder.buildInput(config.stream.input);
}

/** Reads `n` transactions (failing on an early end). */
export async function readN(input: Input, n: number): Promise<Transaction[]> {
  const out: Transaction[] = [];
  while (out.length < n) {
    const txn = await input.read();
    if (!txn) throw new Error(`input ended after ${out.length} of ${n} transactions`);
    out.push(txn);
  }
  return out;
}

export const texts = (txns: readonly Transaction[]): string[] =>
  txns.flatMap((t) => t.batch.map((m) => m.text()));

/** Reads and acks everything until the input ends; the texts in order. */
export async function drain(input: Input): Promise<string[]> {
  const out: string[] = [];
  for (;;) {
    const txn = await input.read();
    if (!txn) return out;
    out.push(...txn.batch.map((m) => m.text()));
    await txn.ack(null);
  }
}
