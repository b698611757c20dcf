// The scale-out proof shared by every broker: two nekton processes (normal mode) consume one
// consumer group / durable / queue and insert every message into PostgreSQL; one is killed with
// SIGKILL halfway and replaced. Every id must arrive (count(distinct id) = N); duplicates are the
// price of at-least-once and are counted, not forbidden.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../helpers/cli.js';
import { freePort, POSTGRES_DSN, postgresPool, waitFor } from '../helpers/kit.js';

export { POSTGRES_DSN };

const ROOT = join(import.meta.dirname, '..', '..');
const MAIN = join(ROOT, 'src', 'cli', 'main.ts');
const BUILT_MAIN = join(ROOT, 'dist', 'cli', 'main.js');

/** How many messages a scale-out test sends: `NEKTON_SCALE_N` (the 20,000) or a default that keeps `npm test` quick. */
export function scaleN(defaultN = 2000): number {
  const n = Number(process.env.NEKTON_SCALE_N ?? defaultN);
  return Number.isInteger(n) && n > 0 ? n : defaultN;
}

export function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(4).toString('hex')}`;
}

/** What a broker contributes: where the messages come from and how to publish them. */
export interface ScaleOutBroker {
  name: string;
  /** Creates the stream/queue/consumer group the instances share. */
  setup(): Promise<void>;
  /** The `input:` section for one instance; `consumer` is stable per slot (a replacement reuses it). */
  inputYaml(consumer: string): string;
  /** Publishes these bodies, each a JSON document `{"id": ...}`. */
  publish(bodies: string[]): Promise<void>;
  teardown(): Promise<void>;
}

export interface ScaleOutResult {
  broker: string;
  n: number;
  /** Rows written (including duplicates). */
  rows: number;
  distinct: number;
  duplicates: number;
  /** Distinct ids already in the table when the instance was killed. */
  distinctAtKill: number;
  /** Messages published by then: the difference was queued or in flight somewhere. */
  publishedAtKill: number;
  /** Rows per instance (a, b, the replacement b2). */
  perInstance: Record<string, number>;
  elapsedMs: number;
  /** Milliseconds from the start until both instances were ready, and until the kill. */
  readyMs: number;
  killMs: number;
}

interface Instance {
  name: string;
  child: ChildProcess;
  port: number;
  output(): string;
}

function configYaml(broker: ScaleOutBroker, consumer: string, instance: string, table: string, port: number) {
  return `http:
  address: 127.0.0.1:${port}
logger:
  level: WARN
shutdown_timeout: 5s
${broker.inputYaml(consumer)}
output:
  sql_insert:
    driver: postgres
    dsn: ${POSTGRES_DSN}
    table: ${table}
    columns: [ id, instance ]
    args_mapping: 'root = [ this.id, "${instance}" ]'
    max_in_flight: 8
    # Messages wait up to 200ms for their batch: the instance killed always holds unacknowledged work.
    batching:
      count: 500
      period: 200ms
`;
}

async function newestMtime(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, (await stat(join(entry.parentPath, entry.name))).mtimeMs);
  }
  return newest;
}

/**
 * The built CLI when dist/ is newer than every source file (as after `npm test`'s build: it starts
 * in less than half the CPU time), else the sources through tsx.
 */
async function nektonArgs(): Promise<string[]> {
  try {
    const built = (await stat(BUILT_MAIN)).mtimeMs;
    if (built >= (await newestMtime(join(ROOT, 'src')))) return [BUILT_MAIN];
  } catch {
    // no build: run the sources
  }
  return ['--import', 'tsx', MAIN];
}

async function startInstance(
  dir: string,
  broker: ScaleOutBroker,
  consumer: string,
  name: string,
  table: string,
): Promise<Instance> {
  const port = await freePort();
  const file = join(dir, `${name}.yaml`);
  await writeFile(file, configYaml(broker, consumer, name, table, port));
  const child = spawn(process.execPath, [...(await nektonArgs()), '-c', file], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  return { name, child, port, output: () => output };
}

async function isReady(instance: Instance): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${instance.port}/ready`, { signal: AbortSignal.timeout(1000) });
    await res.text();
    return res.status === 200;
  } catch {
    return false;
  }
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function stopInstance(instance: Instance, signal: NodeJS.Signals): Promise<void> {
  const done = exited(instance.child);
  instance.child.kill(signal);
  const timer = setTimeout(() => instance.child.kill('SIGKILL'), 10_000);
  await done;
  clearTimeout(timer);
}

/**
 * Runs the whole scenario; throws (with the instances' logs) when not every id arrived within
 * timeoutMs. The caller asserts on the result.
 */
export async function runScaleOut(
  broker: ScaleOutBroker,
  n: number,
  timeoutMs: number,
): Promise<ScaleOutResult> {
  const started = Date.now();
  const deadline = started + timeoutMs;
  const table = uniqueName('nekton_scale');
  const db = postgresPool();
  const dir = tempDir('nekton-scale-');
  const instances: Instance[] = [];
  const count = async () => {
    const { rows } = await db.query(
      `SELECT count(*)::int AS rows, count(DISTINCT id)::int AS distinct FROM ${table}`,
    );
    return rows[0] as { rows: number; distinct: number };
  };
  try {
    // No unique constraint on id: duplicates must be visible to be counted.
    await db.query(
      `CREATE TABLE ${table} (seq bigserial PRIMARY KEY, id text NOT NULL, instance text NOT NULL, at timestamptz NOT NULL DEFAULT now())`,
    );
    await broker.setup();
    instances.push(await startInstance(dir, broker, 'a', 'a', table));
    instances.push(await startInstance(dir, broker, 'b', 'b', table));
    await waitFor(
      async () => {
        for (const i of instances)
          if (i.child.exitCode !== null) throw new Error(`${i.name} exited:\n${i.output()}`);
        return (await Promise.all(instances.map(isReady))).every(Boolean) || false;
      },
      { message: 'both instances ready', timeoutMs: deadline - Date.now(), failFast: true },
    );

    const readyMs = Date.now() - started;
    const width = String(n).length;
    const bodies = Array.from({ length: n }, (_, i) =>
      JSON.stringify({ id: `m${String(i).padStart(width, '0')}` }),
    );
    // Publishing runs while the instances consume, so the kill lands while messages are in flight.
    // Paced in 20 slices so the instances are mid-stream (not finished) when the kill comes.
    let published = 0;
    const publishing = (async () => {
      const slice = Math.ceil(n / 20);
      for (let at = 0; at < n; at += slice) {
        const part = bodies.slice(at, at + slice);
        await broker.publish(part);
        published += part.length;
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    publishing.catch(() => undefined);

    // Halfway, by distinct ids written, kill b.
    const atKill = await waitFor(
      async () => {
        const c = await count();
        if (c.distinct < n / 2) return false;
        return c;
      },
      { message: 'half of the messages', timeoutMs: deadline - Date.now(), intervalMs: 10 },
    );
    const killMs = Date.now() - started;
    const publishedAtKill = published;
    const victim = instances[1] as Instance;
    victim.child.kill('SIGKILL');
    await exited(victim.child);
    instances.push(await startInstance(dir, broker, 'b', 'b2', table));
    await publishing;

    const final = await waitFor(
      async () => {
        const c = await count();
        return c.distinct >= n ? c : false;
      },
      { message: 'every id in PostgreSQL', timeoutMs: deadline - Date.now(), intervalMs: 50 },
    );
    // Late duplicates (redelivered after the last new id) still count: let in-flight work settle.
    await new Promise((r) => setTimeout(r, 300));
    const settled = await count();
    const per = await db.query(
      `SELECT instance, count(*)::int AS n FROM ${table} GROUP BY instance ORDER BY instance`,
    );
    return {
      broker: broker.name,
      n,
      rows: settled.rows,
      distinct: Math.max(final.distinct, settled.distinct),
      duplicates: settled.rows - settled.distinct,
      distinctAtKill: atKill.distinct,
      publishedAtKill,
      perInstance: Object.fromEntries(
        per.rows.map((r: { instance: string; n: number }) => [r.instance, r.n]),
      ),
      elapsedMs: Date.now() - started,
      readyMs,
      killMs,
    };
  } catch (err) {
    const logs = instances.map((i) => `--- ${i.name}\n${i.output().slice(-4000)}`).join('\n');
    throw new Error(`${(err as Error).message}\n${logs}`);
  } finally {
    await Promise.all(instances.map((i) => stopInstance(i, 'SIGTERM')));
    await broker.teardown().catch(() => undefined);
    await db.query(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
    await db.end();
    await rm(dir, { recursive: true, force: true });
  }
}

/** One line for the test log: the figures the issue asks for. */
export function describeResult(r: ScaleOutResult): string {
  const per = Object.entries(r.perInstance)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  return `${r.broker}: n=${r.n} distinct=${r.distinct} rows=${r.rows} duplicates=${r.duplicates} killed at ${r.distinctAtKill} of ${r.publishedAtKill} published (${per}); ready ${r.readyMs}ms, kill ${r.killMs}ms, done ${r.elapsedMs}ms`;
}
