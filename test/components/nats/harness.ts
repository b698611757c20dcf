import { randomBytes } from 'node:crypto';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { registry as builtins } from '../../../src/components/registry.js';
import { schemaProvider } from '../../../src/config/schema.js';
import { toServiceConfig } from '../../../src/config/service_config.js';
import type { ComponentSpec } from '../../../src/config/spec.js';
import { buildLineIndex, parseYaml, yamlToValue } from '../../../src/config/yaml_document.js';
import type { OutputWriter } from '../../../src/engine/component.js';
import { Registry } from '../../../src/engine/registry.js';
import { Stream } from '../../../src/engine/stream.js';
import type { Message } from '../../../src/message/message.js';
import { createTestEnv } from '../../helpers/context.js';
import { freePort, NATS_URL, waitFor } from '../../helpers/kit.js';
import { PrivateServer } from '../../helpers/private_server.js';

export { NATS_URL };

/** A name no other test run uses: subjects, streams, durables and buckets. */
export function unique(prefix: string): string {
  return `${prefix}_${randomBytes(4).toString('hex')}`;
}

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
  stop(): Promise<void>;
}

/** Builds and starts a stream from YAML (output `capture: {}` records into the returned Capture). */
export async function startStream(yaml: string, capture = new Capture()): Promise<RunningStream> {
  const registry = new Registry([...builtins.list(), captureSpec(capture)]);
  const provider = schemaProvider(registry);
  const parsed = parseYaml(yaml, 'test.yaml');
  const config = toServiceConfig(yamlToValue(parsed), { provider, lines: buildLineIndex(parsed) });
  if (!config.stream) throw new Error('the YAML has no stream');
  const { builder, env, abort } = createTestEnv({ registry });
  const stream = await Stream.build(config.stream, builder, env.logger, abort);
  const done = stream.run();
  return {
    stream,
    capture,
    async stop() {
      await stream.stop(2000);
      await done.catch(() => undefined);
    },
  };
}

/** A plain client connection for setting up and checking what the components did. */
export function client(url = NATS_URL): Promise<NatsConnection> {
  return connect({ servers: url });
}

/** A nats-server of the test's own, with JetStream storing in a temporary directory. */
export class PrivateNatsServer extends PrivateServer {
  private constructor(port: number) {
    super(port, 'nats');
  }

  static async start(): Promise<PrivateNatsServer> {
    const server = new PrivateNatsServer(await freePort());
    await server.restart();
    return server;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  protected command(): [string, string[]] {
    return ['/usr/sbin/nats-server', ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.dir]];
  }

  protected waitReady(): Promise<unknown> {
    return waitFor(
      async () => {
        const nc = await connect({ servers: this.url, reconnect: false });
        await nc.close();
        return true;
      },
      { message: `nats-server on port ${this.port}` },
    );
  }
}
