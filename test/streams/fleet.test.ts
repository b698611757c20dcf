// A fleet driven from outside: `nekton streams --store URL --cluster` processes sharing one
// PostgreSQL database (and NATS KV), killed with SIGKILL and cut off from their store. Placement
// is rendezvous hashing, so each test computes where a stream must run with the same function.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { join } from 'node:path';
import { after, describe, it, type TestContext } from 'node:test';
import { preferredNode } from '../../src/streams/fleet/rendezvous.js';
import { Admin, REDIS_URL } from '../components/redis/helpers.js';
import { startNekton, tempDir } from '../helpers/cli.js';
import { freePort, NATS_URL, postgresPool, requireService, TcpProxy, waitFor } from '../helpers/kit.js';

const LEASE = '3s';
const DB = `nekton_fleet_${process.pid}`;
/** Each test gets its own database (`${DB}_<n>`): streams stored by one test must not run in the next. */
let database = DB;
const dsn = (port = 5432) => `postgres://postgres@127.0.0.1:${port}/${database}?sslmode=disable`;
const GENERATE = 'input:\n  generate:\n    interval: 200ms\n    mapping: root = 1\noutput:\n  drop: {}\n';

interface Node {
  id: string;
  port: number;
  child: ChildProcess & { output(): string };
}

interface Reply {
  status: number;
  body: string;
}

function call(
  port: number,
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** What one node runs itself (a forwarded request is answered locally); a node that died says why. */
async function localStreams(node: Node): Promise<Record<string, { active: boolean }>> {
  let reply: Reply;
  try {
    reply = await call(node.port, 'GET', '/streams', undefined, { 'x-nekton-forwarded-by': 'test' });
  } catch (err) {
    throw new Error(`node ${node.id} did not answer (${String(err)}); its output:\n${node.child.output()}`);
  }
  return reply.status === 200 ? (JSON.parse(reply.body) as Record<string, { active: boolean }>) : {};
}

async function startNode(id: string, store: string, extra: string[] = []): Promise<Node> {
  const port = await freePort();
  const dir = tempDir('nekton-fleet-');
  const obs = join(dir, 'obs.yaml');
  writeFileSync(obs, `http:\n  address: 127.0.0.1:${port}\nlogger:\n  level: INFO\n`);
  const child = startNekton(
    ['streams', '-o', obs, '--store', store, '--cluster', '--node-id', id, '--lease-ttl', LEASE, ...extra],
    { NEKTON_FLEET_TEST_NODE: id },
  );
  const node = { id, port, child };
  await waitFor(async () => (await call(port, 'GET', '/ping').catch(() => undefined))?.status === 200, {
    timeoutMs: 20_000,
    message: () => `node ${id} did not start:\n${child.output()}`,
  });
  await waitFor(() => child.output().includes(`node ${id}`), {
    timeoutMs: 10_000,
    message: () => child.output(),
  });
  return node;
}

function stopNode(node: Node): Promise<void> {
  if (node.child.exitCode !== null || node.child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    node.child.once('exit', () => resolve());
    node.child.kill('SIGTERM');
  });
}

function kill(node: Node): Promise<void> {
  return new Promise((resolve) => {
    node.child.once('exit', () => resolve());
    node.child.kill('SIGKILL');
  });
}

/** Waits until the streams `node` runs itself satisfy `ok`; the failure names what it ran. */
async function waitLocal(node: Node, ok: (ids: string[]) => boolean, timeoutMs = 15_000): Promise<void> {
  let last: string[] = [];
  await waitFor(
    async () => {
      last = Object.keys(await localStreams(node)).sort();
      return ok(last);
    },
    { timeoutMs, message: () => `node ${node.id} runs ${JSON.stringify(last)}\n${node.child.output()}` },
  );
}

/** Stream ids that hash to `node` among `nodes`. */
function idsFor(node: string, nodes: string[], prefix: string, count: number): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < count; i++)
    if (preferredNode(`${prefix}${i}`, nodes) === node) out.push(`${prefix}${i}`);
  return out;
}

describe('streams fleet on PostgreSQL', () => {
  const nodes: Node[] = [];

  const created: string[] = [];
  after(async () => {
    await Promise.all(nodes.map(stopNode));
    const pool = postgresPool();
    for (const name of created)
      await pool.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    await pool.end();
  });

  async function up(t: TestContext): Promise<boolean> {
    if (!(await requireService(t, 'postgres'))) return false;
    database = `${DB}_${created.length}`;
    created.push(database);
    const pool = postgresPool();
    try {
      await pool.query(`DROP DATABASE IF EXISTS ${database}`);
      await pool.query(`CREATE DATABASE ${database}`);
    } finally {
      await pool.end();
    }
    return true;
  }

  it('places streams by hash, answers for every stream on every node, and moves them when a node dies', async (t) => {
    if (!(await up(t))) return;
    const [a, b] = [`pa${process.pid}`, `pb${process.pid}`];
    nodes.push(await startNode(a, dsn()), await startNode(b, dsn()));
    const [na, nb] = nodes as [Node, Node];
    const onA = idsFor(a, [a, b], 'sa', 3);
    const onB = idsFor(b, [a, b], 'sb', 3);
    // Every create goes through node A; the ones that hash to B are forwarded there.
    for (const id of [...onA, ...onB])
      assert.equal((await call(na.port, 'POST', `/streams/${id}`, GENERATE)).status, 200);
    const listed = JSON.parse((await call(nb.port, 'GET', '/streams')).body) as Record<
      string,
      { node: string; active: boolean }
    >;
    for (const id of onA) assert.equal(listed[id]?.node, a, `${id} on ${a}`);
    for (const id of onB) assert.equal(listed[id]?.node, b, `${id} on ${b}`);
    assert.deepEqual(Object.keys(await localStreams(na)).sort(), [...onA].sort());
    assert.deepEqual(Object.keys(await localStreams(nb)).sort(), [...onB].sort());

    // Reads and changes of a stream work from the node that does not run it.
    const target = onB[0] as string;
    const read = await call(na.port, 'GET', `/streams/${target}`);
    assert.equal(read.status, 200);
    assert.equal((JSON.parse(read.body) as { state: string }).state, 'running');
    const changed = GENERATE.replace('200ms', '300ms');
    assert.equal((await call(na.port, 'PUT', `/streams/${target}`, changed)).status, 200);
    const after = JSON.parse((await call(nb.port, 'GET', `/streams/${target}`)).body) as {
      config: { input: { generate: { interval: string } } };
    };
    assert.equal(after.config.input.generate.interval, '300ms');
    assert.equal((await call(na.port, 'GET', `/streams/${target}/stats`)).status, 200);
    assert.equal((await call(na.port, 'GET', '/ready')).body, 'OK');

    // SIGKILL B: its streams start on A once their leases (2 s) run out.
    await kill(nb);
    await waitLocal(na, (ids) => ids.length === 6);
    const all = JSON.parse((await call(na.port, 'GET', '/streams')).body) as Record<string, { node: string }>;
    assert.deepEqual(new Set(Object.values(all).map((s) => s.node)), new Set([a]));

    // A node that joins takes back the streams that hash to it.
    const c = `pc${process.pid}`;
    nodes.push(await startNode(c, dsn()));
    const nc = nodes[2] as Node;
    const forC = [...onA, ...onB].filter((id) => preferredNode(id, [a, c]) === c);
    await waitLocal(nc, (ids) => ids.join() === forC.sort().join(), 20_000);
    // Deleting through any node removes it everywhere, and from the store.
    assert.equal((await call(nc.port, 'DELETE', `/streams/${onA[0]}`)).status, 200);
    await waitFor(
      async () => !((onA[0] as string) in JSON.parse((await call(na.port, 'GET', '/streams')).body)),
      {
        timeoutMs: 10_000,
      },
    );
    await Promise.all([stopNode(na), stopNode(nc)]);
    nodes.length = 0;
  });

  it("spreads 100 streams over three nodes and restarts a killed node's streams on the other two", async (t) => {
    if (!(await up(t))) return;
    const ids3 = [`ta${process.pid}`, `tb${process.pid}`, `tc${process.pid}`];
    for (const id of ids3) nodes.push(await startNode(id, dsn()));
    const three = [...nodes];
    const streams = Array.from({ length: 100 }, (_, i) => `many${i}`);
    const slow = GENERATE.replace('200ms', '1s');
    // Created through every node in turn; each create lands on the node the hash picks.
    for (const [i, id] of streams.entries())
      assert.equal((await call((three[i % 3] as Node).port, 'POST', `/streams/${id}`, slow)).status, 200);
    for (const node of three) {
      const expected = streams.filter((id) => preferredNode(id, ids3) === node.id).sort();
      assert.ok(expected.length > 0, `the hash gives ${node.id} some of the 100 streams`);
      await waitLocal(node, (ids) => ids.join() === expected.join());
    }

    const [victim, ...survivors] = three as [Node, Node, Node];
    const killedAt = Date.now();
    await kill(victim);
    let active = 0;
    await waitFor(
      async () => {
        const [x, y] = await Promise.all(survivors.map(localStreams));
        active = streams.filter((id) => x?.[id]?.active || y?.[id]?.active).length;
        return active === streams.length;
      },
      { timeoutMs: 30_000, message: () => `${active} of 100 streams active on the survivors` },
    );
    const failOver = Date.now() - killedAt;
    console.log(
      `fleet: 100 streams on 3 nodes, SIGKILL one: all active on the other two ${failOver} ms later (lease ${LEASE})`,
    );
    // Each survivor runs what the hash gives it among the two.
    const two = survivors.map((n) => n.id);
    for (const node of survivors) {
      const expected = streams.filter((id) => preferredNode(id, two) === node.id).sort();
      await waitLocal(node, (ids) => ids.join() === expected.join());
    }
    await Promise.all(survivors.map(stopNode));
    nodes.length = 0;
  });

  it('loses none of 20,000 Redis Streams entries when the node running the stream is killed', async (t) => {
    if (!(await up(t)) || !(await requireService(t, 'redis'))) return;
    const key = `nekton_fleet_${process.pid}_${Date.now()}`;
    const received = new Map<string, number>();
    const sink: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const id = Buffer.concat(chunks).toString('utf8');
        received.set(id, (received.get(id) ?? 0) + 1);
        res.end('ok');
      });
    });
    const sinkPort = await freePort();
    await new Promise<void>((resolve) => sink.listen(sinkPort, '127.0.0.1', resolve));
    const admin = await Admin.open();
    admin.track(key);
    try {
      const total = 20_000;
      for (let i = 0; i < total; i += 500)
        await Promise.all(
          Array.from({ length: Math.min(500, total - i) }, (_, j) =>
            admin.send('XADD', key, '*', 'body', `m${i + j}`),
          ),
        );
      assert.equal(await admin.send('XLEN', key), total);

      const [a, b] = [`ra${process.pid}`, `rb${process.pid}`];
      nodes.push(await startNode(a, dsn()), await startNode(b, dsn()));
      const [na, nb] = nodes as [Node, Node];
      const id = idsFor(b, [a, b], 'rs', 1)[0] as string;
      // One client_id on every node: the node that takes the stream over re-reads the entries the
      // dead node read but never acknowledged (its pending entries) before new ones.
      const config = `input:\n  redis_streams:\n    url: ${REDIS_URL}\n    streams: [${key}]\n    consumer_group: fleet\n    client_id: fleet-worker\n    limit: 100\n    commit_period: 100ms\noutput:\n  http_client:\n    url: http://127.0.0.1:${sinkPort}/\n    verb: POST\n    max_in_flight: 16\n`;
      assert.equal((await call(na.port, 'POST', `/streams/${id}`, config)).status, 200);
      await waitFor(() => received.size >= 4_000, {
        timeoutMs: 30_000,
        message: () => `${received.size} received\n${nb.child.output()}`,
      });
      await kill(nb);
      const atKill = received.size;
      await waitFor(() => received.size === total, {
        timeoutMs: 60_000,
        message: () =>
          `${received.size} of ${total} distinct messages arrived after the kill\n${na.child.output()}`,
      });
      const duplicates = [...received.values()].filter((n) => n > 1).length;
      console.log(
        `fleet: redis_streams, node killed after ${atKill} of ${total} arrived: all ${total} arrived, ${duplicates} twice or more`,
      );
      assert.ok(atKill < total, 'the node was killed before the stream had delivered everything');
      assert.ok(id in (await localStreams(na)), 'the stream runs on the surviving node');
      await stopNode(na);
      nodes.length = 0;
    } finally {
      await admin.cleanup();
      sink.close();
    }
  });

  it('never runs a stream twice when its node is cut off from the store', async (t) => {
    if (!(await up(t))) return;
    // The shared record: every message the stream makes says which node made it and when (each node
    // has its own NEKTON_FLEET_TEST_NODE), and goes to one sink. A double run shows as messages from
    // A made after B's first one.
    const made: { node: string; at: number }[] = [];
    const sink: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const [node = '', at = ''] = Buffer.concat(chunks).toString('utf8').split(' ');
        made.push({ node, at: Number(at) });
        res.end('ok');
      });
    });
    const sinkPort = await freePort();
    await new Promise<void>((resolve) => sink.listen(sinkPort, '127.0.0.1', resolve));
    t.after(() => sink.close());
    const tagged = `input:\n  generate:\n    interval: 20ms\n    mapping: 'root = env("NEKTON_FLEET_TEST_NODE") + " " + timestamp_unix_milli().string()'\noutput:\n  http_client:\n    url: http://127.0.0.1:${sinkPort}/\n    verb: POST\n    max_in_flight: 1\n`;
    const proxy = await TcpProxy.start({ host: '127.0.0.1', port: 5432 });
    const [a, b] = [`ca${process.pid}`, `cb${process.pid}`];
    // A reaches the store only through the proxy the test cuts.
    nodes.push(await startNode(a, dsn(proxy.port)), await startNode(b, dsn()));
    const [na, nb] = nodes as [Node, Node];
    const id = idsFor(a, [a, b], 'split', 1)[0] as string;
    assert.equal((await call(nb.port, 'POST', `/streams/${id}`, tagged)).status, 200);
    await waitFor(async () => id in (await localStreams(na)), { timeoutMs: 10_000 });
    await waitFor(() => made.some((m) => m.node === a), { message: 'A made no message' });

    await proxy.cut();
    const overlaps: number[] = [];
    const started = Date.now();
    let movedAt = 0;
    while (Date.now() - started < 12_000) {
      const [onA, onB] = await Promise.all([localStreams(na), localStreams(nb)]);
      if (onA[id]?.active && onB[id]?.active) overlaps.push(Date.now() - started);
      if (!onA[id] && onB[id]?.active) {
        movedAt ||= Date.now() - started;
        if (Date.now() - started > movedAt + 1_000) break;
      }
      await new Promise((r) => setTimeout(r, 40));
    }
    assert.deepEqual(overlaps, [], 'both nodes ran the stream at these times (ms after the cut)');
    assert.ok(movedAt > 0, `the stream never moved to B:\n${na.child.output()}`);
    await waitFor(() => made.filter((m) => m.node === b).length >= 5, { message: 'B made no messages' });
    const lastOfA = Math.max(...made.filter((m) => m.node === a).map((m) => m.at));
    const firstOfB = Math.min(...made.filter((m) => m.node === b).map((m) => m.at));
    console.log(
      `fleet: cut-off node made its last message ${firstOfB - lastOfA} ms before the other node made its first (${made.length} messages)`,
    );
    assert.ok(lastOfA < firstOfB, `A made a message at ${lastOfA}, after B's first at ${firstOfB}`);
    assert.deepEqual(new Set(made.map((m) => m.node)), new Set([a, b]), 'only A and B made messages');
    const readyA = await call(na.port, 'GET', '/ready');
    assert.equal(readyA.status, 503);
    assert.match(readyA.body, /unreachable/);

    await proxy.resume();
    let lastReady = '';
    await waitFor(
      async () => {
        const reply = await call(na.port, 'GET', '/ready');
        lastReady = reply.body;
        return reply.status === 200;
      },
      { timeoutMs: 15_000, message: () => `A's /ready stayed ${lastReady}\n${na.child.output()}` },
    );
    assert.ok(!(id in (await localStreams(na))), 'A did not take the stream back while B holds it');
    await Promise.all([stopNode(na), stopNode(nb)]);
    nodes.length = 0;
    await proxy.cut();
  });

  it('refuses --cluster without a shared store', async () => {
    const dir = tempDir('nekton-fleet-');
    const child = startNekton([
      'streams',
      '--store',
      `file:${dir}`,
      '--cluster',
      '-s',
      'http.address=127.0.0.1:0',
    ]);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.notEqual(code, 0);
    assert.match(child.output(), /--cluster needs a store every node shares/);
  });
});

describe('streams fleet on NATS', () => {
  it('spreads streams and moves them off a killed node', async (t) => {
    if (!(await requireService(t, 'nats'))) return;
    const store = `${NATS_URL}/nekton_fleet_${process.pid}_${Date.now()}`;
    const [a, b] = [`na${process.pid}`, `nb${process.pid}`];
    const na = await startNode(a, store);
    const nb = await startNode(b, store);
    try {
      const onA = idsFor(a, [a, b], 'x', 2);
      const onB = idsFor(b, [a, b], 'y', 2);
      for (const id of [...onA, ...onB])
        assert.equal((await call(nb.port, 'POST', `/streams/${id}`, GENERATE)).status, 200);
      assert.deepEqual(Object.keys(await localStreams(na)).sort(), [...onA].sort());
      assert.deepEqual(Object.keys(await localStreams(nb)).sort(), [...onB].sort());
      await kill(na);
      await waitLocal(nb, (ids) => ids.length === 4);
    } finally {
      await Promise.all([stopNode(na), stopNode(nb)]);
    }
  });
});
