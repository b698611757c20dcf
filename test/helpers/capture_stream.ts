// Streams for connector tests: built from YAML (resources first) and started, writing to a
// `capture` output that records what it is given and can refuse some messages.
import { registry as builtins } from '../../src/components/registry.js';
import { schemaProvider } from '../../src/config/schema.js';
import { toServiceConfig } from '../../src/config/service_config.js';
import type { ComponentSpec } from '../../src/config/spec.js';
import { buildLineIndex, parseYaml, yamlToValue } from '../../src/config/yaml_document.js';
import type { ConnectionStatus, OutputWriter } from '../../src/engine/component.js';
import { Registry } from '../../src/engine/registry.js';
import { Stream } from '../../src/engine/stream.js';
import type { Message } from '../../src/message/message.js';
import { buildResources } from '../../src/service/build_resources.js';
import { createTestEnv } from './context.js';

/** What the `capture` output received; `failWhen` decides per message whether its write fails. */
export class Capture {
  readonly messages: Message[] = [];
  failWhen: (msg: Message) => boolean = () => false;
  failures = 0;

  texts(): string[] {
    return this.messages.map((m) => m.text());
  }
}

function captureSpec(capture: Capture): ComponentSpec {
  return {
    name: 'capture',
    kind: 'output',
    status: 'stable',
    summary: 'records messages (tests only)',
    fields: [],
    build(_config, ctx) {
      const writer: OutputWriter = {
        connect: async () => undefined,
        write: async (batch) => {
          if (batch.some((m) => capture.failWhen(m))) {
            capture.failures++;
            throw new Error('capture refused the batch');
          }
          capture.messages.push(...batch);
        },
        close: async () => undefined,
      };
      return ctx.wrapWriter(writer);
    },
  };
}

export interface RunningStream {
  stream: Stream;
  capture: Capture;
  /** The error of a disconnected component under `prefix` (`input`, `output`), if any. */
  errorOf(prefix: 'input' | 'output'): string | undefined;
  stop(): Promise<void>;
}

/** Builds (resources first) and starts a stream from YAML (output `capture: {}` records into the returned Capture). */
export async function startStream(yaml: string, capture = new Capture()): Promise<RunningStream> {
  const registry = new Registry([...builtins.list(), captureSpec(capture)]);
  const provider = schemaProvider(registry);
  const parsed = parseYaml(yaml, 'test.yaml');
  const config = toServiceConfig(yamlToValue(parsed), { provider, lines: buildLineIndex(parsed) });
  if (!config.stream) throw new Error('the YAML has no stream');
  const { builder, env, resources, abort } = createTestEnv({ registry });
  await buildResources(config, builder, resources);
  const stream = await Stream.build(config.stream, builder, env.logger, abort);
  const done = stream.run();
  return {
    stream,
    capture,
    errorOf(prefix) {
      return stream
        .statuses()
        .find((s: ConnectionStatus) => s.path.startsWith(prefix) && !s.connected && s.error)?.error;
    },
    async stop() {
      await stream.stop(2000);
      await done.catch(() => undefined);
      await resources.closeAll();
    },
  };
}
