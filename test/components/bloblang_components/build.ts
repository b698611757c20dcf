// Builds components from configs written as in YAML (normalised with the real registry, so
// nested processors/outputs become ComponentConfigs), for the Bloblang-driven component tests.
import { registry } from '../../../src/components/registry.js';
import { lintComponentConfig } from '../../../src/config/lint_config.js';
import { normaliseComponent } from '../../../src/config/normalise.js';
import { type ConfigKind, schemaProvider } from '../../../src/config/schema.js';
import { parseYaml } from '../../../src/config/yaml_document.js';
import type { Input, Output, Processor } from '../../../src/engine/component.js';
import type { ComponentConfig } from '../../../src/engine/context.js';
import { type Batch, Message } from '../../../src/message/message.js';
import { createTestEnv, type TestEnv } from '../../helpers/context.js';

const provider = schemaProvider(registry);

export function componentConfig(
  kind: ConfigKind,
  raw: Record<string, unknown>,
  path: string,
): ComponentConfig {
  return normaliseComponent(kind, raw, { docPath: [], configPath: path }, { provider });
}

export async function processor(
  raw: Record<string, unknown>,
  env: TestEnv = createTestEnv(),
): Promise<Processor> {
  return env.builder.buildProcessor(componentConfig('processor', raw, 'root.pipeline.processors.0'));
}

export async function input(raw: Record<string, unknown>, env: TestEnv = createTestEnv()): Promise<Input> {
  return env.builder.buildInput(componentConfig('input', raw, 'root.input'));
}

export async function output(raw: Record<string, unknown>, env: TestEnv = createTestEnv()): Promise<Output> {
  return env.builder.buildOutput(componentConfig('output', raw, 'root.output'));
}

/** Lint messages for one component written as YAML. */
export function lintComponent(kind: ConfigKind, yaml: string): string[] {
  const lints = lintComponentConfig(parseYaml(yaml), kind, {
    provider,
    bloblang: { checkMapping: () => undefined, checkInterpolation: () => undefined },
  });
  return lints.map((l) => l.message);
}

/** A batch of messages from texts. */
export function batchOf(...texts: string[]): Batch {
  return texts.map((t) => new Message(t));
}

/** Every batch a processor returns, awaited. */
export async function run(p: Processor, batch: Batch): Promise<Batch[]> {
  return p.process(batch);
}

/** The contents of the batches, as texts. */
export function texts(batches: Batch[]): string[][] {
  return batches.map((b) => b.map((m) => m.text()));
}
