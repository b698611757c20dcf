// Drives streams mode over loopback: a real service on 127.0.0.1 (port 0), plain HTTP requests,
// and the component registry the scenarios need.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registry as builtins } from '../../src/components/registry.js';
import { parseDurationMs } from '../../src/config/duration.js';
import type { ComponentSpec } from '../../src/config/spec.js';
import type { InputReader, Transaction } from '../../src/engine/component.js';
import { Registry } from '../../src/engine/registry.js';
import { Message } from '../../src/message/message.js';
import {
  type StreamsCommandOptions,
  type StreamsService,
  startStreamsService,
} from '../../src/streams/service.js';

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A config read back over the API, walked by key in assertions. */
export type Loose = { readonly [key: string]: Loose };

/** The harmless stream `H` of spec §9. */
export const H = { input: { generate: { mapping: 'root = deleted()' } }, output: { drop: {} } };
export const H_JSON = JSON.stringify(H);
export const H_BUF_JSON = JSON.stringify({ ...H, buffer: { memory: {} } });

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'nekton-streams-'));
}

/**
 * The built-in registry. Until the real `generate` input lands, a minimal stand-in with its config
 * shape (mapping, interval, count) lets the API scenarios run; it is unused once the real one exists.
 */
export const testRegistry: Registry = new Registry([
  ...builtins.list(),
  ...(builtins.has('input', 'generate') ? [] : [generateStandIn()]),
  ...testDoubles(),
]);

export async function startService(
  options: Partial<StreamsCommandOptions> & { observabilityYaml?: string } = {},
): Promise<StreamsService> {
  const dir = tempDir();
  const obs = join(dir, 'obs.yaml');
  writeFileSync(obs, options.observabilityYaml ?? 'http:\n  address: 127.0.0.1:0\nlogger:\n  level: OFF\n');
  return startStreamsService({
    paths: [],
    observability: obs,
    api: true,
    prefixStreamEndpoints: true,
    watch: false,
    chilled: false,
    sets: [],
    envFiles: [],
    resources: [],
    registry: testRegistry,
    ...options,
  });
}

export function send(
  service: StreamsService,
  method: string,
  path: string,
  body?: string | Buffer,
  headers: Record<string, string> = {},
): Promise<Reply> {
  return new Promise<Reply>((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: service.http.port, path, method, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export function json(reply: Reply): Record<string, unknown> {
  return JSON.parse(reply.body) as Record<string, unknown>;
}

/** `test_unconnectable`: an output that never connects; `test_blackhole`: one that never acknowledges. */
function testDoubles(): ComponentSpec[] {
  const unconnectable: ComponentSpec<Record<string, never>> = {
    name: 'test_unconnectable',
    kind: 'output',
    status: 'stable',
    summary: 'test double: connect always fails',
    fields: [],
    build: (_config, ctx) =>
      ctx.wrapWriter({
        connect: async () => {
          throw new Error('this output can never connect');
        },
        write: async () => undefined,
        close: async () => undefined,
      }),
  };
  const blackhole: ComponentSpec<Record<string, never>> = {
    name: 'test_blackhole',
    kind: 'output',
    status: 'stable',
    summary: 'test double: writes never settle',
    fields: [],
    build: (_config, ctx) =>
      ctx.wrapWriter({
        connect: async () => undefined,
        write: () => new Promise<void>(() => undefined),
        close: async () => undefined,
      }),
  };
  return [unconnectable, blackhole] as ComponentSpec[];
}

function generateStandIn(): ComponentSpec {
  const spec: ComponentSpec<{ mapping: string; interval: string; count: number }> = {
    name: 'generate',
    kind: 'input',
    status: 'stable',
    summary: 'test stand-in for the generate input',
    fields: [
      { name: 'mapping', type: 'string', kind: 'scalar', description: '', bloblang: true },
      { name: 'interval', type: 'string', kind: 'scalar', description: '', default: '1s' },
      { name: 'count', type: 'int', kind: 'scalar', description: '', default: 0 },
      { name: 'batch_size', type: 'int', kind: 'scalar', description: '', default: 1 },
      { name: 'auto_replay_nacks', type: 'bool', kind: 'scalar', description: '', default: true },
    ],
    build(config, ctx) {
      const mapping = ctx.mapping(config.mapping, 'mapping');
      const intervalMs = config.interval ? parseDurationMs(config.interval) : 0;
      let produced = 0;
      let closed = false;
      let wake: (() => void) | null = null;
      const sleep = (ms: number) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, ms);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      const reader: InputReader = {
        connect: async () => undefined,
        async read(): Promise<Transaction | null> {
          for (;;) {
            if (closed || (config.count > 0 && produced >= config.count)) return null;
            if (intervalMs > 0 && produced > 0) await sleep(intervalMs);
            if (closed) return null;
            produced++;
            const msg = mapping.apply([new Message('')], 0);
            if (msg) return { batch: [msg], ack: async () => undefined };
            if (intervalMs === 0) await sleep(0);
            else if (produced === 1) await sleep(intervalMs);
          }
        },
        async close() {
          closed = true;
          (wake as (() => void) | null)?.();
        },
      };
      return ctx.wrapReader(reader);
    },
  };
  return spec as ComponentSpec;
}
