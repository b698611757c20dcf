// What the beanstalkd tests share: a private beanstalkd (with a binlog, so jobs survive a kill) on
// a free port, a plain connection to set up and inspect jobs, and the input built from YAML.

import { BeanstalkdConnection, type Job } from '../../../src/components/beanstalkd/client.js';
import { registry } from '../../../src/components/registry.js';
import { schemaProvider } from '../../../src/config/schema.js';
import { toServiceConfig } from '../../../src/config/service_config.js';
import { buildLineIndex, parseYaml, yamlToValue } from '../../../src/config/yaml_document.js';
import type { Input } from '../../../src/engine/component.js';
import { createTestEnv } from '../../helpers/context.js';
import { freePort, PrivateServer, waitFor } from '../../helpers/kit.js';

export class PrivateBeanstalkd extends PrivateServer {
  private extra: string[] = [];

  /** `extra`: more beanstalkd options, e.g. `-z 16` for a tiny maximum job size. */
  static async start(...extra: string[]): Promise<PrivateBeanstalkd> {
    const server = new PrivateBeanstalkd(await freePort(), 'beanstalkd');
    server.extra = extra;
    await server.restart();
    return server;
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  protected command(): [string, string[]] {
    return ['beanstalkd', ['-l', '127.0.0.1', '-p', String(this.port), '-b', this.dir, ...this.extra]];
  }

  protected waitReady(): Promise<unknown> {
    return waitFor(
      async () => {
        (await BeanstalkdConnection.open(this.address)).destroy();
        return true;
      },
      { message: `beanstalkd on :${this.port}` },
    );
  }
}

/** A plain connection to a beanstalkd, for putting, reserving and inspecting jobs. */
export class Admin {
  private constructor(readonly connection: BeanstalkdConnection) {}

  static async open(address: string): Promise<Admin> {
    return new Admin(await BeanstalkdConnection.open(address));
  }

  async put(...bodies: string[]): Promise<string[]> {
    return Promise.all(bodies.map((b) => this.connection.put(Buffer.from(b), 100, 0, 60)));
  }

  /** The job's state (`ready`, `reserved`, ...), or `gone` once it was deleted. */
  async state(id: string): Promise<string> {
    const reply = await this.connection.request(`stats-job ${id}`);
    if (reply.words[0] === 'NOT_FOUND') return 'gone';
    return /^state: (\S+)$/m.exec(reply.body?.toString() ?? '')?.[1] ?? `? ${reply.words.join(' ')}`;
  }

  /** Reserves (at once) and deletes a job, returning its body; null when none is ready. */
  async take(): Promise<string | null> {
    const reply = await this.connection.reserve(0);
    if (typeof reply !== 'object') return null;
    await this.connection.delete(reply.id);
    return reply.body.toString();
  }

  /** Reserves a job (at once) and keeps it reserved; null when none is ready. */
  async reserve(): Promise<Job | null> {
    const reply = await this.connection.reserve(0);
    return typeof reply === 'object' ? reply : null;
  }

  /** Every job body ready now, each deleted. */
  async drain(): Promise<string[]> {
    const bodies: string[] = [];
    for (let body = await this.take(); body !== null; body = await this.take()) bodies.push(body);
    return bodies;
  }

  close(): void {
    this.connection.destroy();
  }
}

/** The input of a YAML config, built and wrapped by the engine, driven by the test itself. */
export async function buildInput(yaml: string): Promise<Input> {
  const provider = schemaProvider(registry);
  const parsed = parseYaml(yaml, 'test.yaml');
  const config = toServiceConfig(yamlToValue(parsed), { provider, lines: buildLineIndex(parsed) });
  if (!config.stream) throw new Error('no stream sections');
  return createTestEnv().builder.buildInput(config.stream.input);
}

/** A config reading from `address` into `drop`. */
export const inputYaml = (address: string) =>
  `input:\n  beanstalkd:\n    address: ${address}\noutput:\n  drop: {}\n`;
