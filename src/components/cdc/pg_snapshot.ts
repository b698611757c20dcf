// The initial snapshot of postgres_cdc: every row of each configured table, read in primary key
// order (keyset pages of `snapshot_batch_size`) inside a transaction that imports the snapshot the
// replication slot exported when it was created, so the stream that follows starts exactly after it.
import type pg from 'pg';
import { pgModuleNow } from './pg_modules.js';
import { type ColumnInfo, quoteIdent, storedName } from './pg_rows.js';
import { primaryKey } from './pg_setup.js';

export interface SnapshotRow {
  table: string;
  row: Record<string, unknown>;
  columns: ColumnInfo[];
}

export async function readSnapshot(
  clientConfig: pg.ClientConfig,
  snapshotName: string,
  schema: string,
  tables: readonly string[],
  batchSize: number,
  emit: (row: SnapshotRow) => Promise<void>,
  isClosed: () => boolean,
): Promise<void> {
  const client = new (pgModuleNow().Client)(clientConfig);
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await client.query(`SET TRANSACTION SNAPSHOT '${snapshotName.replace(/'/g, "''")}'`);
    for (const table of tables) {
      const key = await primaryKey(client, schema, table);
      if (key.length === 0)
        throw new Error(
          `postgres_cdc: table ${schema}.${table} has no primary key; stream_snapshot needs one`,
        );
      const from = `${quoteIdent(schema)}.${quoteIdent(table)}`;
      const keyList = key.map((k) => quoteIdent(k)).join(', ');
      let last: unknown[] | null = null;
      for (;;) {
        if (isClosed()) return;
        const params = last ?? [];
        const where = last ? `WHERE (${keyList}) > (${key.map((_, i) => `$${i + 1}`).join(', ')})` : '';
        const result: pg.QueryResult<Record<string, unknown>> = await client.query(
          `SELECT * FROM ${from} ${where} ORDER BY ${keyList} LIMIT ${Math.max(1, batchSize)}`,
          params,
        );
        const columns = result.fields.map((f) => ({ name: f.name, typeOid: f.dataTypeID }));
        for (const row of result.rows) await emit({ table: storedName(table), row, columns });
        if (result.rows.length < Math.max(1, batchSize)) break;
        const end = result.rows[result.rows.length - 1]!;
        last = key.map((k) => end[k]);
      }
    }
    await client.query('COMMIT');
  } finally {
    await client.end().catch(() => undefined);
  }
}
