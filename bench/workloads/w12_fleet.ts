// W12: streams mode with a PostgreSQL store and a fleet. A store holding 1,000 streams (`generate`
// every 1s -> `drop`), written once in setup through one node's API. Each run: (1) restore: start
// `nekton streams --store URL` and time from spawn until GET /streams lists all 1,000 active;
// (2) the same with `--cluster` (leases taken for every stream); (3) fail-over: a second cluster node
// joins, takes over the streams the hash gives it, is killed with SIGKILL, and the time until every
// stream is active again on the first node is measured (lease time 3 s, renewed every 0.75 s).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { preferredNode } from '../../src/streams/fleet/rendezvous.js';
import type { Measured, Metrics, Row, Workload } from '../harness.js';
import { type Background, freePort, sleep, startNekton, waitForHttp } from '../processes.js';

const STREAMS = 1000;
const LEASE = '3s';
const DATABASE = `nekton_bench_w12_${process.pid}`;
const ADMIN_DSN = 'postgres://postgres@127.0.0.1:5432/test?sslmode=disable';
const STORE = `postgres://postgres@127.0.0.1:5432/${DATABASE}?sslmode=disable`;
const STREAM_BODY = `input:
  generate:
    interval: 1s
    mapping: 'root = "tick"'
output:
  drop: {}
`;
const ids = Array.from({ length: STREAMS }, (_, i) => `w12_${i}`);

interface Listed {
  active?: boolean;
  node?: string | null;
}

async function listed(port: number, local = false): Promise<Record<string, Listed>> {
  const res = await fetch(`http://127.0.0.1:${port}/streams`, {
    headers: local ? { 'x-nekton-forwarded-by': 'bench' } : {},
  });
  if (res.status !== 200) return {};
  return (await res.json()) as Record<string, Listed>;
}

/** Polls until `ok` holds; throws with `what` after `timeoutMs`. */
async function until(ok: () => Promise<boolean>, what: string, proc: Background, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await ok().catch(() => false)) return;
    if (proc.child.exitCode !== null) throw new Error(`${what}: node exited: ${proc.stderr()}`);
    if (Date.now() > deadline) throw new Error(`${what}: timed out: ${proc.stderr()}`);
    await sleep(20);
  }
}

const allActive = async (port: number, local = false) => {
  const streams = await listed(port, local);
  return ids.every((id) => streams[id]?.active === true);
};

export function w12Fleet(workDir: string): Workload {
  const title = 'W12 fleet';
  const admin = new pg.Pool({ connectionString: ADMIN_DSN, max: 1 });

  async function node(name: string, cluster: boolean): Promise<{ proc: Background; port: number }> {
    const port = await freePort();
    const obs = join(workDir, `w12-${name}.yaml`);
    writeFileSync(obs, `http:\n  address: 127.0.0.1:${port}\nlogger:\n  level: WARN\n`);
    const args = ['streams', '-o', obs, '--store', STORE];
    if (cluster) args.push('--cluster', '--node-id', name, '--lease-ttl', LEASE);
    return { proc: startNekton(args), port };
  }

  async function once(): Promise<Metrics> {
    // (1) Restore into a plain store-backed node.
    let started = performance.now();
    const plain = await node('plain', false);
    try {
      await until(() => allActive(plain.port), 'restore', plain.proc);
    } finally {
      await plain.proc.stop();
    }
    const restore = (performance.now() - started) / 1000;

    // (2) Restore into one fleet node, which takes a lease for every stream.
    started = performance.now();
    const a = await node('w12a', true);
    const b = { proc: null as Background | null, port: 0 };
    try {
      await until(() => allActive(a.port), 'fleet restore', a.proc);
      const fleetRestore = (performance.now() - started) / 1000;

      // (3) B joins and takes over its share; then SIGKILL B.
      const joined = await node('w12b', true);
      b.proc = joined.proc;
      b.port = joined.port;
      const forB = ids.filter((id) => preferredNode(id, ['w12a', 'w12b']) === 'w12b');
      await waitForHttp(`http://127.0.0.1:${b.port}/ping`, joined.proc);
      await until(
        async () => {
          const local = await listed(b.port, true);
          return forB.every((id) => local[id]?.active === true);
        },
        'hand-over to the joining node',
        joined.proc,
        120_000,
      );
      const killedAt = performance.now();
      const exited = new Promise<void>((resolve) => joined.proc.child.once('exit', () => resolve()));
      joined.proc.child.kill('SIGKILL');
      await exited;
      await until(() => allActive(a.port, true), 'fail-over', a.proc);
      const failOver = (performance.now() - killedAt) / 1000;
      return { restore, fleetRestore, failOver, moved: forB.length };
    } finally {
      await b.proc?.stop();
      await a.proc.stop();
    }
  }

  return {
    id: 'W12',
    title,
    describes: `a PostgreSQL store holding ${STREAMS} streams (generate every 1s -> drop): time from spawn until GET /streams lists all ${STREAMS} active, for a plain store-backed node and for one fleet node (--cluster); then a second fleet node joins, takes its share, is killed with SIGKILL, and the time until all are active on the first node (lease ${LEASE})`,
    async skipReason() {
      try {
        await admin.query('SELECT 1');
        return undefined;
      } catch (err) {
        return `PostgreSQL unreachable: ${(err as Error).message}`;
      }
    },
    async setup() {
      await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${DATABASE}`);
      // Fill the store through one node's API, then stop it.
      const filler = await node('filler', false);
      try {
        await waitForHttp(`http://127.0.0.1:${filler.port}/ping`, filler.proc);
        let next = 0;
        const worker = async () => {
          for (let i = next++; i < STREAMS; i = next++) {
            const res = await fetch(`http://127.0.0.1:${filler.port}/streams/${ids[i]}`, {
              method: 'POST',
              headers: { 'content-type': 'application/yaml' },
              body: STREAM_BODY,
            });
            const text = await res.text();
            if (res.status !== 200) throw new Error(`POST /streams/${ids[i]}: ${res.status} ${text}`);
          }
        };
        await Promise.all(Array.from({ length: 8 }, worker));
      } finally {
        await filler.proc.stop();
      }
    },
    teardown: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`).catch(() => undefined);
      await admin.end();
    },
    contenders: [{ name: 'nekton', run: once }],
    report(m: Measured): Row[] {
      const n = m.medians.get('nekton');
      const row = (what: string, figure: string): Row => ({
        workload: `${title}: ${what}`,
        nekton: figure,
        baseline: '',
        baselineFigure: '',
        ratio: '',
        target: '',
        met: null,
      });
      if (!n) return [row('all', `failed: ${m.unavailable.get('nekton') ?? 'did not run'}`)];
      return [
        row(`restore ${STREAMS} stored streams (store)`, `${n.restore!.toFixed(2)} s`),
        row(`restore ${STREAMS} stored streams (one fleet node)`, `${n.fleetRestore!.toFixed(2)} s`),
        row(
          `fail-over of ${n.moved!.toFixed(0)} streams after SIGKILL (lease ${LEASE})`,
          `${n.failOver!.toFixed(2)} s`,
        ),
      ];
    },
  };
}
