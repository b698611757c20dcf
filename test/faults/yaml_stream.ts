// Runs a stream from a YAML config (the way a user writes it) until its input ends, with a bound.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { registry } from '../../src/components/registry.js';
import { schemaProvider } from '../../src/config/schema.js';
import { toServiceConfig } from '../../src/config/service_config.js';
import { buildLineIndex, parseYaml, yamlToValue } from '../../src/config/yaml_document.js';
import { Stream } from '../../src/engine/stream.js';
import { tempDir } from '../helpers/cli.js';
import { createTestEnv } from '../helpers/context.js';

const provider = schemaProvider(registry);

/** Builds the stream and waits for it to end by itself; stops it after `boundMs` (a bound, not a measure). */
export async function runYamlToEnd(yaml: string, boundMs = 60_000): Promise<void> {
  const parsed = parseYaml(yaml, 'test.yaml');
  const config = toServiceConfig(yamlToValue(parsed), { provider, lines: buildLineIndex(parsed) });
  const { builder, env, abort } = createTestEnv();
  if (!config.stream) throw new Error('no stream in the config');
  const stream = await Stream.build(config.stream, builder, env.logger, abort);
  const running = stream.run();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void stream.stop(1000);
  }, boundMs);
  try {
    await running;
  } finally {
    clearTimeout(timer);
  }
  if (timedOut) throw new Error(`the stream did not end within ${boundMs} ms`);
}

/** A file of `lines` (one message each) in a fresh temporary directory; returns its path. */
export function linesFile(lines: string[]): string {
  const file = join(tempDir(), 'in.txt');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}
