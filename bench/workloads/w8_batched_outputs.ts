// W8: batching outputs. A file of JSON docs -> `sql_insert` (local PostgreSQL, 3 columns) and ->
// `redis_streams`, each with `batching.count` 1 and 500, against a hand-written client loop doing
// the same inserts / XADDs 500 at a time (pg multi-row INSERT; @redis/client MULTI). Target: the
// batched stream at least 0.7 of its loop, and faster than the same stream unbatched.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from '@redis/client';
import pg from 'pg';
import { writeDocuments } from '../documents.js';
import { type Measured, type Metrics, num, ratioRow, type Workload } from '../harness.js';
import { isRegistered, timeCommand, timeNekton } from '../processes.js';

const PG_DSN = 'postgres://postgres@127.0.0.1:5432/test?sslmode=disable';
const REDIS_URL = 'redis://127.0.0.1:6379';
const BATCH = 500;
const header = 'http:\n  enabled: false\nlogger:\n  level: WARN\n';
const suffix = () => randomBytes(4).toString('hex');

export function w8BatchedOutputs(workDir: string, docs = 30_000): Workload {
  const dataFile = join(workDir, 'w8-docs.jsonl');
  // One INSERT per row runs at a few hundred rows/s: the unbatched sql_insert reads fewer docs.
  const fewDocs = Math.min(docs, 5_000);
  const fewFile = join(workDir, 'w8-few-docs.jsonl');
  const title = 'W8 batched outputs';
  const format = (m: Metrics) => `${num(m.rate!)} msgs/s`;
  const figures = (seconds: number, n = docs): Metrics => ({ rate: n / seconds });
  const db = new pg.Pool({ connectionString: PG_DSN, max: 2 });
  const redis = createClient({ url: REDIS_URL });
  redis.on('error', () => undefined);
  const input = (file: string) => `input:\n  file:\n    paths: [ ${JSON.stringify(file)} ]\n`;

  /** A fresh table, the insert timed, the rows counted, the table dropped. */
  async function sqlRound(insert: (table: string) => Promise<number>, n = docs): Promise<Metrics> {
    const table = `nekton_bench_w8_${suffix()}`;
    await db.query(`CREATE TABLE ${table} (id bigint, name text, city text)`);
    try {
      const seconds = await insert(table);
      const { rows } = await db.query(`SELECT count(*)::int AS n FROM ${table}`);
      if (rows[0].n < n) throw new Error(`only ${rows[0].n} of ${n} rows arrived`);
      return figures(seconds, n);
    } finally {
      await db.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }

  async function redisRound(add: (stream: string) => Promise<number>): Promise<Metrics> {
    const stream = `nekton_bench_w8_${suffix()}`;
    try {
      const seconds = await add(stream);
      const n = await redis.xLen(stream);
      if (n < docs) throw new Error(`only ${n} of ${docs} entries arrived`);
      return figures(seconds);
    } finally {
      await redis.del(stream);
    }
  }

  const nektonSql = (count: number) => (table: string) => {
    const file = join(workDir, `w8-sql-${count}.yaml`);
    writeFileSync(
      file,
      `${header}${input(count === 1 ? fewFile : dataFile)}output:\n  sql_insert:\n    driver: postgres\n    dsn: ${JSON.stringify(PG_DSN)}\n    table: ${table}\n    columns: [ id, name, city ]\n    args_mapping: 'root = [ this.id, this.user.name, this.user.address.city ]'\n    batching:\n      count: ${count}\n`,
    );
    return timeNekton(['-c', file]);
  };
  const nektonRedis = (count: number) => (stream: string) => {
    const file = join(workDir, `w8-redis-${count}.yaml`);
    writeFileSync(
      file,
      `${header}${input(dataFile)}output:\n  redis_streams:\n    url: ${REDIS_URL}\n    stream: ${stream}\n    batching:\n      count: ${count}\n`,
    );
    return timeNekton(['-c', file]);
  };

  return {
    id: 'W8',
    title,
    describes: `${num(docs)} JSON docs (${num(fewDocs)} for sql_insert unbatched) from a file -> sql_insert (PostgreSQL) / redis_streams, batching.count 1 and ${BATCH}; msgs/s against a hand-written pg / @redis/client loop writing ${BATCH} at a time`,
    async skipReason() {
      for (const name of ['sql_insert', 'redis_streams'])
        if (!(await isRegistered('outputs', name))) return `${name} not available`;
      try {
        await db.query('SELECT 1');
        await redis.connect();
        return undefined;
      } catch (err) {
        return `PostgreSQL or Redis unreachable: ${(err as Error).message}`;
      }
    },
    async setup() {
      await writeDocuments(dataFile, docs);
      await writeDocuments(fewFile, fewDocs);
    },
    teardown: async () => {
      await db.end();
      if (redis.isOpen) await redis.quit();
    },
    contenders: [
      { name: 'sql_insert batching 1', run: () => sqlRound(nektonSql(1), fewDocs) },
      { name: `sql_insert batching ${BATCH}`, run: () => sqlRound(nektonSql(BATCH)) },
      {
        name: 'pg loop',
        run: () =>
          sqlRound((table) =>
            timeCommand(process.execPath, [
              'bench/baselines/pg_insert_loop.mjs',
              PG_DSN,
              table,
              dataFile,
              String(BATCH),
            ]),
          ),
      },
      { name: 'redis_streams batching 1', run: () => redisRound(nektonRedis(1)) },
      { name: `redis_streams batching ${BATCH}`, run: () => redisRound(nektonRedis(BATCH)) },
      {
        name: '@redis/client loop',
        run: () =>
          redisRound((stream) =>
            timeCommand(process.execPath, [
              'bench/baselines/redis_xadd_loop.mjs',
              REDIS_URL,
              stream,
              dataFile,
              String(BATCH),
            ]),
          ),
      },
    ],
    report: (m: Measured) => [
      ratioRow(`${title} sql_insert 1`, m, 'sql_insert batching 1', 'pg loop', 'rate', format),
      ratioRow(
        `${title} sql_insert ${BATCH}`,
        m,
        `sql_insert batching ${BATCH}`,
        'pg loop',
        'rate',
        format,
        0.7,
      ),
      ratioRow(
        `${title} sql_insert ${BATCH}`,
        m,
        `sql_insert batching ${BATCH}`,
        'sql_insert batching 1',
        'rate',
        format,
        1,
      ),
      ratioRow(
        `${title} redis_streams 1`,
        m,
        'redis_streams batching 1',
        '@redis/client loop',
        'rate',
        format,
      ),
      ratioRow(
        `${title} redis_streams ${BATCH}`,
        m,
        `redis_streams batching ${BATCH}`,
        '@redis/client loop',
        'rate',
        format,
        0.7,
      ),
      ratioRow(
        `${title} redis_streams ${BATCH}`,
        m,
        `redis_streams batching ${BATCH}`,
        'redis_streams batching 1',
        'rate',
        format,
        1,
      ),
    ],
  };
}
