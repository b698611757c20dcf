// Builds and runs a real stream from a YAML config, the way `nekton run` does, for connector tests.
import { registry } from '../../../src/components/registry.js';
import { lintServiceConfig } from '../../../src/config/lint_config.js';
import { schemaProvider } from '../../../src/config/schema.js';
import { toServiceConfig } from '../../../src/config/service_config.js';
import { buildLineIndex, parseYaml, yamlToValue } from '../../../src/config/yaml_document.js';
import type { Output } from '../../../src/engine/component.js';
import { Stream } from '../../../src/engine/stream.js';
import { createTestEnv } from '../../helpers/context.js';

const provider = schemaProvider(registry);

export interface RunningStream {
  stream: Stream;
  /** Settles when the stream has finished. */
  done: Promise<void>;
  stop(): Promise<void>;
}

/** Lints (failing on any lint), builds and starts the stream of a config. */
export async function startStream(yaml: string): Promise<RunningStream> {
  const parsed = parseYaml(yaml, 'test.yaml');
  const lints = lintServiceConfig(parsed, { provider });
  if (lints.length > 0) throw new Error(`config does not lint: ${lints.map((l) => l.message).join('; ')}`);
  const config = toServiceConfig(yamlToValue(parsed), { provider, lines: buildLineIndex(parsed) });
  if (!config.stream) throw new Error('config has no stream');
  const { builder, env, abort } = createTestEnv();
  const stream = await Stream.build(config.stream, builder, env.logger, abort);
  const done = stream.run();
  return { stream, done, stop: () => stream.stop(5000) };
}

/** Builds only the output of a config (a full config, so it lints like a real one). */
export async function buildOutput(yaml: string): Promise<Output> {
  const parsed = parseYaml(yaml, 'test.yaml');
  const config = toServiceConfig(yamlToValue(parsed), { provider, lines: buildLineIndex(parsed) });
  if (!config.stream) throw new Error('config has no stream');
  return createTestEnv().builder.buildOutput(config.stream.output);
}
