import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { RedisConnection, type RedisReply, redisTarget } from '../../../src/components/redis/client.js';
import { registry } from '../../../src/components/registry.js';
import { schemaProvider } from '../../../src/config/schema.js';
import { toServiceConfig } from '../../../src/config/service_config.js';
import { buildLineIndex, parseYaml, yamlToValue } from '../../../src/config/yaml_document.js';
import { Stream } from '../../../src/engine/stream.js';
import { buildResources } from '../../../src/service/build_resources.js';
import { createTestEnv, type TestEnv } from '../../helpers/context.js';
import { freePort, REDIS_URL, waitFor } from '../../helpers/kit.js';
import { PrivateServer } from '../../helpers/private_server.js';
import { TLS_OFF } from '../../helpers/tls.js';

export { REDIS_URL };

const provider = schemaProvider(registry);

/** A key name no other test run uses. */
export function uniqueName(what: string): string {
  return `nekton-test:${what}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

/** A plain connection for setting up and inspecting Redis; delete the keys you made with `cleanup`. */
export class Admin {
  private readonly keys = new Set<string>();

  private constructor(readonly connection: RedisConnection) {}

  static async open(): Promise<Admin> {
    const target = await redisTarget({
      url: REDIS_URL,
      kind: 'simple',
      master: '',
      client_name: 'nekton-test-admin',
      tls: TLS_OFF,
    });
    return new Admin(await RedisConnection.open(target, pino({ level: 'silent' })));
  }

  /** Remembers keys to delete at cleanup. */
  track(...keys: string[]): void {
    for (const k of keys) this.keys.add(k);
  }

  send<T extends RedisReply = RedisReply>(...args: string[]): Promise<T> {
    return this.connection.send<T>(args);
  }

  async cleanup(): Promise<void> {
    if (this.keys.size > 0) await this.connection.send(['DEL', ...this.keys]).catch(() => undefined);
    await this.connection.close();
  }

  /** Closes every connection whose name is `name` (CLIENT KILL by id), returning how many. */
  async killClients(name: string): Promise<number> {
    const list = await this.send<string>('CLIENT', 'LIST');
    let killed = 0;
    for (const line of list.split('\n')) {
      const id = /(?:^|\s)id=(\d+)/.exec(line)?.[1];
      if (id && new RegExp(`(?:^|\\s)name=${name}(?:\\s|$)`).test(line)) {
        await this.send('CLIENT', 'KILL', 'ID', id);
        killed++;
      }
    }
    return killed;
  }
}

export interface RunningStream {
  stream: Stream;
  env: TestEnv;
  done: Promise<void>;
  stop(): Promise<void>;
}

/** Lints nothing, builds and starts the stream (and its resources) of a full config written in YAML. */
export async function startStream(yaml: string): Promise<RunningStream> {
  const parsed = parseYaml(yaml, 'redis-test.yaml');
  const config = toServiceConfig(yamlToValue(parsed), { provider, lines: buildLineIndex(parsed) });
  if (!config.stream) throw new Error('config has no stream');
  const env = createTestEnv();
  await buildResources(config, env.builder, env.resources);
  const stream = await Stream.build(config.stream, env.builder, env.env.logger, env.abort);
  const done = stream.run();
  return {
    stream,
    env,
    done,
    stop: async () => {
      await stream.stop(5000);
      await done.catch(() => undefined);
      await env.resources.closeAll();
    },
  };
}

/** The field/value pairs of a stream entry as an object. */
export function entryFields(raw: RedisReply): Record<string, string> {
  const out: Record<string, string> = {};
  const fields = Array.isArray(raw) ? (raw as RedisReply[]) : [];
  for (let i = 0; i + 1 < fields.length; i += 2) out[String(fields[i])] = String(fields[i + 1]);
  return out;
}

/** Every entry of a stream: [id, fields]. */
export async function readStream(
  admin: Admin,
  stream: string,
): Promise<Array<[string, Record<string, string>]>> {
  const entries = await admin.send<RedisReply[]>('XRANGE', stream, '-', '+');
  return entries.map((e) => {
    const [id, fields] = e as [string, RedisReply];
    return [id, entryFields(fields)];
  });
}

/** How many entries of the group are pending (read, not acknowledged). */
export async function pendingCount(admin: Admin, stream: string, group: string): Promise<number> {
  // -1 while the group does not exist yet (the input creates it when it connects).
  const summary = await admin.send<RedisReply[]>('XPENDING', stream, group).catch(() => null);
  return summary ? Number(summary[0]) : -1;
}

/**
 * A redis-server of the test's own on a free port, so a test can kill and restart it without
 * touching the shared one. The append-only file (fsync always) keeps streams, groups and pending
 * entries across a SIGKILL, as a production server with persistence would.
 */
export class PrivateRedisServer extends PrivateServer {
  private constructor(port: number) {
    super(port, 'redis');
  }

  static async start(): Promise<PrivateRedisServer> {
    const server = new PrivateRedisServer(await freePort());
    await server.restart();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  protected command(): [string, string[]] {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--dir', this.dir];
    return ['redis-server', [...args, '--appendonly', 'yes', '--appendfsync', 'always']];
  }

  /** Resolves once it answers PING (while it loads the append-only file it answers LOADING). */
  protected async waitReady(): Promise<unknown> {
    const target = await redisTarget({
      url: this.url,
      kind: 'simple',
      master: '',
      client_name: '',
      tls: TLS_OFF,
    });
    return waitFor(
      async () => {
        const c = await RedisConnection.open(target, pino({ level: 'silent' })).catch(() => null);
        if (!c) return false;
        const ok = await c.send(['PING']).then(
          () => true,
          () => false,
        );
        await c.close();
        return ok;
      },
      { message: `redis-server on port ${this.port}` },
    );
  }

  /** A plain connection to this server. */
  async admin(): Promise<RedisConnection> {
    const target = await redisTarget({
      url: this.url,
      kind: 'simple',
      master: '',
      client_name: 'nekton-test-admin',
      tls: TLS_OFF,
    });
    return RedisConnection.open(target, pino({ level: 'silent' }));
  }
}
