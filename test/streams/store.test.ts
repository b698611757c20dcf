// biome-ignore-all lint/suspicious/noTemplateCurlyInString: env references and Bloblang interpolations, not JS templates
// Issue 23 part 1: `nekton streams --store URL` keeps API-made streams and resources across
// restarts, for each store kind, with real processes (SIGTERM and SIGKILL) on the local
// PostgreSQL and NATS JetStream; secrets stay unexpanded in the store; an unreachable store at
// start fails the start naming it; losing it later makes /ready 503 while the streams run on;
// each store's change feed reports writes made on another connection.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { connect } from '@nats-io/transport-node';
import { NatsStore } from '../../src/streams/store/nats.js';
import { PostgresStore } from '../../src/streams/store/postgres.js';
import type { StoreChange, StreamStore } from '../../src/streams/store/store.js';
import { runNekton, startNekton, tempDir } from '../helpers/cli.js';
import {
  closedPort,
  freePort,
  NATS_URL,
  POSTGRES_DSN,
  postgresPool,
  requireService,
  SERVICES,
  type ServiceName,
  TcpProxy,
  waitFor,
} from '../helpers/kit.js';

const SECRET = 'hunter2-never-stored';
const ENV = { STORE_TEST_SECRET: SECRET };

type Node = ChildProcess & { output(): string; port: number };

interface StoreKind {
  name: string;
  service?: ServiceName;
  url(): string;
  /** Every stored record as text. */
  storedText(): Promise<string>;
  cleanup(): Promise<void>;
}

function fileStore(): StoreKind {
  const dir = join(tempDir('nekton-store-'), 'store');
  return {
    name: 'file',
    url: () => `file:${dir}`,
    storedText: async () => readTree(dir),
    cleanup: async () => undefined,
  };
}

function readTree(dir: string): string {
  if (!existsSync(dir)) return '';
  return readdirSync(dir)
    .map((name) => join(dir, name))
    .map((path) => (statSync(path).isDirectory() ? readTree(path) : readFileSync(path, 'utf8')))
    .join('\n');
}

async function clearPostgresTable(): Promise<void> {
  const pool = postgresPool();
  try {
    await pool.query('DROP TABLE IF EXISTS nekton_stream_store');
  } finally {
    await pool.end();
  }
}

function postgresStore(): StoreKind {
  return {
    name: 'postgres',
    service: 'postgres',
    url: () => POSTGRES_DSN,
    storedText: async () => {
      const pool = postgresPool();
      try {
        const { rows } = await pool.query(
          'SELECT section, id, value::text AS value FROM nekton_stream_store',
        );
        return rows
          .map((r: { section: string; id: string; value: string }) => `${r.section}/${r.id} ${r.value}`)
          .join('\n');
      } finally {
        await pool.end();
      }
    },
    cleanup: clearPostgresTable,
  };
}

function natsStore(): StoreKind {
  const bucket = `nekton_store_test_${process.pid}_${Date.now()}`;
  return {
    name: 'nats',
    service: 'nats',
    url: () => `${NATS_URL}/${bucket}`,
    storedText: async () => {
      const nc = await connect({ servers: NATS_URL });
      try {
        const kv = await new Kvm(nc).open(bucket);
        const parts: string[] = [];
        for await (const key of await kv.keys()) parts.push(`${key} ${(await kv.get(key))?.string() ?? ''}`);
        return parts.join('\n');
      } finally {
        await nc.close();
      }
    },
    cleanup: () => deleteNatsBucket(bucket),
  };
}

async function deleteNatsBucket(bucket: string): Promise<void> {
  const nc = await connect({ servers: NATS_URL });
  try {
    await (await jetstreamManager(nc)).streams.delete(`KV_${bucket}`).catch(() => undefined);
  } finally {
    await nc.close();
  }
}

function observabilityFile(port: number): string {
  const path = join(tempDir('nekton-store-obs-'), 'obs.yaml');
  writeFileSync(path, `http:\n  address: 127.0.0.1:${port}\nlogger:\n  level: info\n`);
  return path;
}

async function startNode(storeUrl: string, port: number): Promise<Node> {
  const child = startNekton(['streams', '-o', observabilityFile(port), '--store', storeUrl], ENV);
  const node = Object.assign(child, { port });
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`nekton exited ${child.exitCode}: ${child.output()}`);
      return (await fetch(`http://127.0.0.1:${port}/ready`).catch(() => null)) !== null;
    },
    { message: () => `nekton to listen: ${child.output()}`, failFast: false, timeoutMs: 15_000 },
  );
  return node;
}

async function stopNode(node: Node, signal: NodeJS.Signals): Promise<void> {
  if (node.exitCode !== null) return;
  const exited = new Promise((resolve) => node.once('exit', resolve));
  node.kill(signal);
  await exited;
}

async function call(node: Node, method: string, path: string, body?: string) {
  const res = await fetch(`http://127.0.0.1:${node.port}${path}`, { method, body });
  return { status: res.status, text: await res.text() };
}

async function ready(t: TestContext, kind: StoreKind): Promise<boolean> {
  return kind.service === undefined || requireService(t, kind.service);
}

/** Writes a line per tick; the cache resource must exist for the stream to build. */
function tickerConfig(outPath: string): string {
  return [
    'input:',
    '  generate:',
    '    interval: 50ms',
    '    mapping: root = "${STORE_TEST_SECRET}"',
    'pipeline:',
    '  processors:',
    '    - cache:',
    '        resource: shared',
    '        operator: set',
    '        key: last',
    '        value: ${! content() }',
    'output:',
    '  file:',
    `    path: ${outPath}`,
    '    codec: lines',
    '',
  ].join('\n');
}

function linesOf(path: string): string[] {
  return existsSync(path)
    ? readFileSync(path, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
    : [];
}

describe('stream store: restart restores what the API made', () => {
  for (const makeKind of [fileStore, postgresStore, natsStore]) {
    const kind = makeKind();
    it(`${kind.name}: streams and resources come back after SIGTERM and after SIGKILL, secrets unexpanded`, async (t) => {
      if (!(await ready(t, kind))) return;
      await kind.cleanup();
      const out = join(tempDir('nekton-store-out-'), 'out.txt');
      const port = await freePort();
      let node = await startNode(kind.url(), port);
      try {
        assert.equal((await call(node, 'POST', '/resources/cache/shared', 'memory: {}\n')).status, 200);
        assert.equal((await call(node, 'POST', '/streams/ticker', tickerConfig(out))).status, 200);
        const gone = 'input:\n  generate:\n    mapping: root = "x"\noutput:\n  drop: {}\n';
        assert.equal((await call(node, 'POST', '/streams/gone', gone)).status, 200);
        assert.equal((await call(node, 'DELETE', '/streams/gone')).status, 200);
        await waitFor(() => linesOf(out).length > 0, { message: 'the ticker to write' });

        const stored = await kind.storedText();
        assert.ok(stored.includes('${STORE_TEST_SECRET}'), stored);
        assert.ok(!stored.includes(SECRET), stored);
        assert.ok(!stored.includes('gone'), `a deleted stream stays deleted in the store: ${stored}`);

        for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
          await stopNode(node, signal);
          const before = linesOf(out).length;
          node = await startNode(kind.url(), port);
          const list = JSON.parse((await call(node, 'GET', '/streams')).text) as Record<
            string,
            { active: boolean }
          >;
          assert.deepEqual(Object.keys(list), ['ticker'], `after ${signal}: ${node.output()}`);
          assert.equal(list.ticker?.active, true);
          const resources = JSON.parse((await call(node, 'GET', '/resources')).text) as {
            cache: Record<string, unknown>;
          };
          assert.deepEqual(resources.cache, { shared: { memory: {} } });
          // It runs, with the variable expanded from this process's environment.
          await waitFor(() => linesOf(out).length > before + 2, {
            message: `the ticker to run after ${signal}`,
          });
          assert.equal(linesOf(out).at(-1), SECRET);
          // Reads show the config as posted.
          assert.match((await call(node, 'GET', '/streams/ticker')).text, /\$\{STORE_TEST_SECRET\}/);
        }
      } finally {
        await stopNode(node, 'SIGKILL');
        await kind.cleanup();
      }
    });
  }
});

describe('stream store: unreachable at start', () => {
  it('each kind fails the start with exit 1, naming the store', async () => {
    const closed = await closedPort();
    const notADir = join(tempDir('nekton-store-'), 'plain-file');
    writeFileSync(notADir, 'not a directory');
    const obs = observabilityFile(await freePort());
    for (const url of [
      `postgres://postgres@127.0.0.1:${closed}/test`,
      `nats://127.0.0.1:${closed}/nekton_streams`,
      `file:${notADir}/store`,
    ]) {
      const result = await runNekton(['streams', '-o', obs, '--store', url], { timeoutMs: 20_000 });
      assert.equal(result.code, 1, `${url}: ${result.stderr}`);
      assert.ok(result.stderr.includes('cannot open the stream store'), result.stderr);
      assert.ok(result.stderr.includes(url), `${url} not named in: ${result.stderr}`);
    }
  });

  it('an unknown store scheme is refused', async () => {
    const obs = observabilityFile(await freePort());
    const result = await runNekton(['streams', '-o', obs, '--store', 'redis://127.0.0.1:6379']);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /unknown stream store 'redis:\/\/127\.0\.0\.1:6379'/);
  });
});

describe('stream store: lost while running', () => {
  const lostBucket = `nekton_store_lost_${process.pid}`;
  const cases: Array<{ service: ServiceName; url: (port: number) => string; clean: () => Promise<void> }> = [
    {
      service: 'postgres',
      url: (port) => `postgres://postgres@127.0.0.1:${port}/test?sslmode=disable`,
      clean: clearPostgresTable,
    },
    {
      service: 'nats',
      url: (port) => `nats://127.0.0.1:${port}/${lostBucket}`,
      clean: () => deleteNatsBucket(lostBucket),
    },
  ];
  for (const { service, url, clean } of cases) {
    it(`${service}: /ready is 503 with the reason, streams keep running, writes are refused until it is back`, async (t) => {
      if (!(await requireService(t, service))) return;
      await clean();
      const proxy = await TcpProxy.start(SERVICES[service]);
      const node = await startNode(url(proxy.port), await freePort());
      try {
        const h = 'input:\n  generate:\n    interval: 20ms\n    mapping: root = "x"\noutput:\n  drop: {}\n';
        assert.equal((await call(node, 'POST', '/streams/running', h)).status, 200);
        await waitFor(async () => (await call(node, 'GET', '/ready')).status === 200, {
          message: '/ready 200',
        });

        await proxy.cut();
        const down = await waitFor(
          async () => {
            const r = await call(node, 'GET', '/ready');
            return r.status === 503 ? r : null;
          },
          { message: '/ready 503 once the store is cut off' },
        );
        assert.match(down.text, /stream store .*127\.0\.0\.1:\d+.* is unreachable: /);
        const detail = JSON.parse((await call(node, 'GET', '/streams/running')).text) as { active: boolean };
        assert.equal(detail.active, true, 'the stream keeps running');

        const refused = await call(node, 'POST', '/streams/later', h);
        assert.equal(refused.status, 503, refused.text);
        assert.match(refused.text, /did not take the change/);
        assert.equal(
          (await call(node, 'GET', '/streams/later')).status,
          404,
          'a refused change is not applied',
        );
        assert.equal((await call(node, 'DELETE', '/streams/running')).status, 503);
        assert.equal(
          (await call(node, 'GET', '/streams/running')).status,
          200,
          'a refused delete keeps the stream',
        );

        await proxy.resume();
        await waitFor(async () => (await call(node, 'GET', '/ready')).status === 200, {
          message: '/ready 200 once the store is back',
        });
        assert.equal((await call(node, 'POST', '/streams/later', h)).status, 200);
      } finally {
        await stopNode(node, 'SIGKILL');
        await proxy.cut();
        await clean();
      }
    });
  }
});

describe('stream store: change feed', () => {
  const cases: Array<{
    service: ServiceName;
    url: string;
    open: (url: string) => StreamStore;
    clean: () => Promise<void>;
  }> = [
    {
      service: 'postgres',
      url: POSTGRES_DSN,
      open: (url) => new PostgresStore(url),
      clean: clearPostgresTable,
    },
    {
      service: 'nats',
      url: `${NATS_URL}/nekton_store_feed_${process.pid}`,
      open: (url) => new NatsStore(url),
      clean: () => deleteNatsBucket(`nekton_store_feed_${process.pid}`),
    },
  ];
  for (const { service, url, open, clean } of cases) {
    it(`${service}: a write on one connection reaches another's watch (LISTEN/NOTIFY, KV watch)`, async (t) => {
      if (!(await requireService(t, service))) return;
      await clean();
      const writer = open(url);
      const watcher = open(url);
      try {
        await writer.open();
        assert.deepEqual(await watcher.open(), []);
        const seen: StoreChange[] = [];
        watcher.watch((change) => seen.push(change));
        const value = { config: { input: { generate: { mapping: 'root = "${X}"' } } }, interpolate: true };
        // The KV watch starts asynchronously: write until the first change is seen.
        await waitFor(
          async () => {
            await writer.put({ section: 'streams', id: 'fed' }, value);
            return seen.length > 0;
          },
          { intervalMs: 100, message: 'the put to be seen' },
        );
        assert.deepEqual(seen[0], { section: 'streams', id: 'fed', value });
        await writer.remove({ section: 'streams', id: 'fed' });
        await waitFor(() => seen.some((c) => c.value === undefined), { message: 'the removal to be seen' });
        assert.deepEqual(seen.at(-1), { section: 'streams', id: 'fed', value: undefined });
      } finally {
        await writer.close();
        await watcher.close();
        await clean();
      }
    });
  }
});
