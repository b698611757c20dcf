// W14: `postgres_cdc` streaming. Each run fills a fresh table's slot with inserts (publication and
// pgoutput slot created first, then the rows inserted, so they wait in the slot), then times the
// reader from its start until every insert was delivered: nekton (postgres_cdc -> drop, done when
// its /metrics count every row as sent) against a hand-written pg-logical-replication reader with
// the pgoutput plugin on the same kind of slot (target 0.7).
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { cpuRow, type Measured, type Metrics, num, ratioRow, type Workload } from '../harness.js';
import {
  CPU_PROBE,
  cpuSeconds,
  freePort,
  isRegistered,
  sleep,
  startNekton,
  timeNodeCpu,
} from '../processes.js';

const PG_DSN = 'postgres://postgres@127.0.0.1:5432/test?sslmode=disable';

/** nekton's output_sent total from its Prometheus /metrics, or 0 while it is not answering. */
async function sentCount(url: string): Promise<number> {
  try {
    const text = await (await fetch(url, { signal: AbortSignal.timeout(2000) })).text();
    let total = 0;
    for (const m of text.matchAll(/^output_sent(?:\{[^}]*\})? (\d+(?:\.\d+)?(?:e\+\d+)?)$/gm))
      total += Number(m[1]);
    return total;
  } catch {
    return 0;
  }
}

export function w14PostgresCdc(workDir: string, rows = 100_000): Workload {
  const title = 'W14 postgres_cdc';
  const format = (m: Metrics) => `${num(m.rate!)} rows/s, ${m.cpu!.toFixed(2)} s CPU`;
  const db = new pg.Pool({ connectionString: PG_DSN, max: 2 });

  /** A table whose `rows` inserts wait in a new slot; `read` times a reader; everything is dropped after. */
  async function round(
    read: (table: string, slot: string, publication: string) => Promise<{ seconds: number; cpu: number }>,
  ): Promise<Metrics> {
    const id = randomBytes(4).toString('hex');
    const table = `nekton_bench_cdc_${id}`;
    const slot = `nekton_bench_cdc_${id}`;
    const publication = `pglog_stream_${slot}`;
    try {
      await db.query(
        `CREATE TABLE ${table} (id int PRIMARY KEY, name text, city text, price double precision, qty int)`,
      );
      await db.query(`CREATE PUBLICATION ${publication} FOR TABLE ${table}`);
      await db.query(`SELECT pg_create_logical_replication_slot($1, 'pgoutput')`, [slot]);
      await db.query(
        `INSERT INTO ${table} SELECT g, 'name' || g, 'city' || (g % 6), (g % 1000) / 10.0, 1 + g % 7 FROM generate_series(1, ${rows}) g`,
      );
      const { seconds, cpu } = await read(table, slot, publication);
      return { rate: rows / seconds, cpu };
    } finally {
      await db
        .query(
          `SELECT pg_drop_replication_slot($1) WHERE EXISTS (SELECT 1 FROM pg_replication_slots WHERE slot_name = $1 AND NOT active)`,
          [slot],
        )
        .catch(() => undefined);
      await db.query(`DROP PUBLICATION IF EXISTS ${publication}`).catch(() => undefined);
      await db.query(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
    }
  }

  async function nekton(table: string, slot: string): Promise<{ seconds: number; cpu: number }> {
    const port = await freePort();
    const configFile = join(workDir, 'w14.yaml');
    writeFileSync(
      configFile,
      `http:\n  address: 127.0.0.1:${port}\nlogger:\n  level: WARN\ninput:\n  postgres_cdc:\n    dsn: ${JSON.stringify(PG_DSN)}\n    schema: public\n    tables: [ ${table} ]\n    slot_name: ${slot}\noutput:\n  drop: {}\n`,
    );
    const url = `http://127.0.0.1:${port}/metrics`;
    const started = performance.now();
    const proc = startNekton(['-c', configFile], ['--require', CPU_PROBE]);
    let seconds = 0;
    try {
      const deadline = Date.now() + 180_000;
      while ((await sentCount(url)) < rows) {
        if (proc.child.exitCode !== null)
          throw new Error(`nekton exited ${proc.child.exitCode}: ${proc.stderr().slice(-400)}`);
        if (Date.now() > deadline) throw new Error(`not done within 180 s: ${proc.stderr().slice(-400)}`);
        await sleep(20);
      }
      seconds = (performance.now() - started) / 1000;
    } finally {
      await proc.stop();
    }
    return { seconds, cpu: cpuSeconds(proc.stderr()) };
  }

  return {
    id: 'W14',
    title,
    describes: `${num(rows)} rows inserted into a fresh table and waiting in a new pgoutput slot, read from the reader's start until all were delivered: postgres_cdc -> drop (done when /metrics counts every row sent) against a hand-written pg-logical-replication reader (pgoutput, the row as JSON, one acknowledgement at the end)`,
    async skipReason() {
      if (!(await isRegistered('inputs', 'postgres_cdc'))) return 'postgres_cdc not available';
      try {
        const { rows: level } = await db.query('SHOW wal_level');
        return level[0]?.wal_level === 'logical' ? undefined : 'PostgreSQL wal_level is not logical';
      } catch (err) {
        return `PostgreSQL unreachable: ${(err as Error).message}`;
      }
    },
    setup: async () => undefined,
    teardown: async () => {
      await db.end();
    },
    contenders: [
      { name: 'nekton', run: () => round((table, slot) => nekton(table, slot)) },
      {
        name: 'pg-logical-replication reader',
        run: () =>
          round((_table, slot, publication) =>
            timeNodeCpu(['bench/baselines/pg_cdc_reader.mjs', PG_DSN, slot, publication, String(rows)]),
          ),
      },
    ],
    report: (m: Measured) => [
      ratioRow(title, m, 'nekton', 'pg-logical-replication reader', 'rate', format, 0.7),
      cpuRow(`${title}, CPU time`, m, 'nekton', 'pg-logical-replication reader'),
    ],
  };
}
