// kill -9 during change data capture: a nekton process streams row changes (postgres_cdc from a
// replication slot, mysql_cdc from the binlog with its position in a file cache) into a file. It is SIGKILLed mid-stream, more changes are made
// while it is down, and a restarted process must deliver every change at least once.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import mysql from 'mysql2/promise';
import type pg from 'pg';
import { tempDir } from '../helpers/cli.js';
import {
  freePort,
  MARIADB_DSN,
  POSTGRES_DSN,
  postgresPool,
  requireService,
  waitFor,
} from '../helpers/kit.js';
import { SERVICES } from '../helpers/services.js';

const ROOT = join(import.meta.dirname, '..', '..');
const MAIN = join(ROOT, 'src', 'cli', 'main.ts');
const N = 1000;
const run = randomBytes(4).toString('hex');
const dir = tempDir('nekton-kill-cdc-');

interface Instance {
  child: ChildProcess;
  port: number;
  output(): string;
}

const instances: Instance[] = [];
let sinkDb: pg.Pool | null = null;
const cleanups: (() => Promise<unknown>)[] = [];

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function isReady(i: Instance): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${i.port}/ready`, { signal: AbortSignal.timeout(1000) });
    await res.text();
    return res.status === 200;
  } catch {
    return false;
  }
}

async function startInstance(name: string, input: string, sink: string): Promise<Instance> {
  const port = await freePort();
  const file = join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    `http:
  address: 127.0.0.1:${port}
logger:
  level: WARN
${input}
pipeline:
  processors:
    - sleep:
        duration: 10ms
output:
  file:
    path: ${sink}
    codec: lines
`,
  );
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '-c', file], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const instance = { child, port, output: () => output };
  instances.push(instance);
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`nekton exited:\n${output}`);
      return isReady(instance);
    },
    { message: () => `instance ${name} ready\n${output.slice(-3000)}`, timeoutMs: 30_000, failFast: true },
  );
  return instance;
}

/** Runs the kill/restart scenario for one source; `insert(from, to)` makes changes from..to, each its own transaction, in one round trip. */
async function scenario(
  t: { diagnostic(m: string): void },
  input: (instance: string) => string,
  insert: (from: number, to: number) => Promise<unknown>,
  sink: string,
  name: string,
): Promise<void> {
  const ids = (): number[] => {
    if (!existsSync(sink)) return [];
    return readFileSync(sink, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('{') && l.endsWith('}'))
      .map((l) => (JSON.parse(l) as { id: number }).id);
  };
  const count = async () => {
    const all = ids();
    return { rows: all.length, distinct: new Set(all).size };
  };
  const first = await startInstance(`${name}_a`, input('a'), sink);
  const half = N / 2;
  // The first half in one burst (each change takes 10 ms in the pipeline, so a backlog builds
  // up), watched while it is still being written.
  const inserting = insert(1, half);
  let last = -1;
  const atKill = await waitFor(
    async () => {
      const c = await count();
      last = c.distinct;
      return c.distinct >= half / 4 ? c : false;
    },
    {
      message: () => `a quarter of the first half (${last} written)\n${first.output().slice(-3000)}`,
      timeoutMs: 60_000,
    },
  );
  first.child.kill('SIGKILL');
  await exited(first.child);
  await inserting;
  const writtenAtExit = (await count()).distinct;
  assert.ok(writtenAtExit < half, `the kill must land mid-stream (${writtenAtExit} of ${half} written)`);
  await insert(half + 1, N);
  const second = await startInstance(`${name}_b`, input('b'), sink);
  await waitFor(async () => (await count()).distinct >= N, {
    message: () => `every change in the sink\n${second.output().slice(-3000)}`,
    timeoutMs: 90_000,
  });
  const final = await count();
  t.diagnostic(
    `n=${N} distinct=${final.distinct} rows=${final.rows} duplicates=${final.rows - final.distinct} killed at ${atKill.distinct} (${writtenAtExit} at exit)`,
  );
  assert.equal(final.distinct, N, 'every change arrived');
  const seen = new Set(ids());
  assert.deepEqual(
    Array.from({ length: N }, (_, k) => k + 1).filter((i) => !seen.has(i)),
    [],
    'no change is missing',
  );
}

function range(from: number, to: number, statement: (i: number) => string): string {
  return Array.from({ length: to - from + 1 }, (_, k) => statement(from + k)).join('\n');
}

describe('kill -9 during change data capture', () => {
  after(async () => {
    for (const i of instances) {
      const done = exited(i.child);
      i.child.kill('SIGKILL');
      await done;
    }
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
    await sinkDb?.end();
    rmSync(dir, { recursive: true, force: true });
  });

  it('postgres_cdc delivers every change after a SIGKILL and restart', async (t) => {
    if (!(await requireService(t, 'postgres'))) return;
    sinkDb ??= postgresPool();
    const db = sinkDb;
    const source = `nekton_kill_pgcdc_src_${run}`;
    const slot = `nekton_kill_pgcdc_${run}`;
    await db.query(`CREATE TABLE ${source} (id int PRIMARY KEY)`);
    cleanups.push(async () => {
      await waitFor(
        async () => {
          const { rows } = await db.query('SELECT active FROM pg_replication_slots WHERE slot_name = $1', [
            slot,
          ]);
          return !rows[0]?.active;
        },
        { message: 'slot released' },
      ).catch(() => undefined);
      await db.query(
        'SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = $1',
        [slot],
      );
      await db.query(`DROP PUBLICATION IF EXISTS pglog_stream_${slot}`);
      await db.query(`DROP TABLE IF EXISTS ${source}`);
    });
    const input = () => `input:
  postgres_cdc:
    dsn: ${POSTGRES_DSN}
    schema: public
    tables: [ ${source} ]
    slot_name: ${slot}
    pg_standby_timeout: 200ms`;
    await scenario(
      t,
      input,
      (from, to) => db.query(range(from, to, (i) => `BEGIN; INSERT INTO ${source} VALUES (${i}); COMMIT;`)),
      join(dir, 'pg_sink.jsonl'),
      'pg',
    );
  });

  it('mysql_cdc delivers every change after a SIGKILL and restart', async (t) => {
    if (!(await requireService(t, 'mariadb'))) return;
    const maria = await mysql.createConnection({
      ...SERVICES.mariadb,
      user: 'root',
      database: 'test',
      multipleStatements: true,
    });
    const source = `nekton_kill_mycdc_src_${run}`;
    await maria.query(`CREATE TABLE ${source} (id INT PRIMARY KEY) ENGINE=InnoDB`);
    cleanups.push(async () => {
      await maria.query(`DROP TABLE IF EXISTS ${source}`);
      await maria.end();
    });
    const cacheDir = join(dir, 'positions');
    const input = () => `input:
  mysql_cdc:
    dsn: ${MARIADB_DSN}
    tables: [ ${source} ]
    stream_snapshot: false
    checkpoint_cache: positions
cache_resources:
  - label: positions
    file:
      directory: ${cacheDir}`;
    await scenario(
      t,
      input,
      (from, to) => maria.query(range(from, to, (i) => `INSERT INTO ${source} VALUES (${i});`)),
      join(dir, 'mysql_sink.jsonl'),
      'mysql',
    );
  });
});
