// The initial snapshot of mysql_cdc: a consistent read of every configured table, paged by primary
// key, and the binlog position that read corresponds to (where streaming then starts). MariaDB
// reports that position with the snapshot itself (binlog_snapshot_file/position); MySQL needs a
// brief global read lock around START TRANSACTION WITH CONSISTENT SNAPSHOT.
import type { Connection, FieldPacket, RowDataPacket } from 'mysql2/promise';
import type { BinlogPosition } from './mysql_position.js';

export const quoteMysql = (name: string) => `\`${name.replace(/`/g, '``')}\``;

export async function binlogStatus(conn: Connection): Promise<BinlogPosition> {
  const [rows] = await conn.query<RowDataPacket[]>('SHOW MASTER STATUS');
  const row = rows[0];
  if (!row)
    throw new Error('mysql_cdc: the server has no binary log (enable log_bin with binlog_format=ROW)');
  return { file: String(row.File), pos: Number(row.Position) };
}

export async function isMariadb(conn: Connection): Promise<boolean> {
  const [rows] = await conn.query<RowDataPacket[]>('SELECT VERSION() AS v');
  return /mariadb/i.test(String(rows[0]?.v ?? ''));
}

/** Starts the snapshot transaction on `conn` and returns the binlog position it reads as of. */
export async function beginSnapshot(conn: Connection, mariadb: boolean): Promise<BinlogPosition> {
  if (mariadb) {
    await conn.query('START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY');
    const [rows] = await conn.query<RowDataPacket[]>("SHOW STATUS LIKE 'binlog_snapshot_%'");
    const value = (name: string) => rows.find((r) => r.Variable_name === name)?.Value;
    return { file: String(value('Binlog_snapshot_file')), pos: Number(value('Binlog_snapshot_position')) };
  }
  await conn.query('FLUSH TABLES WITH READ LOCK');
  try {
    await conn.query('START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY');
    return await binlogStatus(conn);
  } finally {
    await conn.query('UNLOCK TABLES');
  }
}

export async function primaryKey(conn: Connection, database: string, table: string): Promise<string[]> {
  const [rows] = await conn.query<RowDataPacket[]>(
    `SELECT COLUMN_NAME AS c FROM information_schema.KEY_COLUMN_USAGE
      WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND CONSTRAINT_NAME = 'PRIMARY' ORDER BY ORDINAL_POSITION`,
    [database, table],
  );
  return rows.map((r) => String(r.c));
}

/** Reads every row of `table` in key order, `batch` at a time, inside the snapshot transaction. */
export async function readTable(
  conn: Connection,
  database: string,
  table: string,
  batch: number,
  emit: (row: Record<string, unknown>) => Promise<void>,
  isClosed: () => boolean,
): Promise<void> {
  const key = await primaryKey(conn, database, table);
  if (key.length === 0)
    throw new Error(`mysql_cdc: table ${database}.${table} has no primary key; the snapshot needs one`);
  const keyList = key.map(quoteMysql).join(', ');
  const size = Math.max(1, batch);
  let last: unknown[] | null = null;
  for (;;) {
    if (isClosed()) return;
    const where: string = last ? `WHERE (${keyList}) > (${key.map(() => '?').join(', ')})` : '';
    const result: [RowDataPacket[], FieldPacket[]] = await conn.query<RowDataPacket[]>(
      `SELECT * FROM ${quoteMysql(database)}.${quoteMysql(table)} ${where} ORDER BY ${keyList} LIMIT ${size}`,
      last ?? [],
    );
    const rows: RowDataPacket[] = result[0];
    for (const row of rows) await emit({ ...row });
    if (rows.length < size) return;
    const end: RowDataPacket = rows[rows.length - 1]!;
    last = key.map((k) => end[k]);
  }
}
