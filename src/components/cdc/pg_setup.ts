// What postgres_cdc prepares on an ordinary connection before it streams: the server's wal_level,
// the publication `pglog_stream_<slot_name>` over the configured tables, and the state of the
// replication slot (one that cannot serve this input is a clear error naming it).
import type pg from 'pg';
import { quoteIdent, storedName } from './pg_rows.js';

export function publicationName(slot: string): string {
  return `pglog_stream_${slot}`;
}

export async function checkWalLevel(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ wal_level: string }>('SHOW wal_level');
  const level = rows[0]?.wal_level;
  if (level !== 'logical')
    throw new Error(
      `postgres_cdc: the server's wal_level is '${level}'; logical replication needs wal_level = logical`,
    );
}

/** `schema.table` identifiers of the configured tables, quoted. */
export function qualifiedTables(schema: string, tables: readonly string[]): string[] {
  return tables.map((t) => `${quoteIdent(schema)}.${quoteIdent(t)}`);
}

export async function ensurePublication(
  client: pg.Client,
  slot: string,
  schema: string,
  tables: readonly string[],
): Promise<string> {
  const name = publicationName(slot);
  const { rows } = await client.query<{ puballtables: boolean }>(
    'SELECT puballtables FROM pg_publication WHERE pubname = $1',
    [name],
  );
  const target = tables.length === 0 ? 'ALL TABLES' : `TABLE ${qualifiedTables(schema, tables).join(', ')}`;
  if (rows.length === 0) {
    await client.query(`CREATE PUBLICATION ${quoteIdent(name)} FOR ${target}`);
  } else if (tables.length > 0 && !rows[0]!.puballtables) {
    await client.query(`ALTER PUBLICATION ${quoteIdent(name)} SET ${target}`);
  }
  return name;
}

export interface SlotState {
  exists: boolean;
}

/** Whether the slot exists; throws (naming slot_name) when it exists but cannot serve this input. */
export async function checkSlot(client: pg.Client, slot: string): Promise<SlotState> {
  const { rows } = await client.query<{
    plugin: string | null;
    slot_type: string;
    database: string | null;
    wal_status: string | null;
    current: string;
  }>(
    'SELECT plugin, slot_type, database, wal_status, current_database() AS current FROM pg_replication_slots WHERE slot_name = $1',
    [slot],
  );
  const row = rows[0];
  if (!row) return { exists: false };
  const named = `slot_name: replication slot '${slot}'`;
  if (row.slot_type !== 'logical' || row.plugin !== 'pgoutput')
    throw new Error(
      `${named} is a ${row.slot_type} slot of plugin '${row.plugin ?? 'none'}', not a logical pgoutput slot`,
    );
  if (row.database !== row.current)
    throw new Error(`${named} belongs to database '${row.database}', not '${row.current}'`);
  if (row.wal_status === 'lost')
    throw new Error(
      `${named} is gone: the WAL it needs was removed (wal_status lost); drop the slot to start again`,
    );
  return { exists: true };
}

/** The primary key columns of a table, in key order; a snapshot needs them to page through it. */
export async function primaryKey(client: pg.Client, schema: string, table: string): Promise<string[]> {
  const { rows } = await client.query<{ attname: string }>(
    `SELECT a.attname FROM pg_index i
       JOIN pg_class c ON c.oid = i.indrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord) ON true
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
      WHERE i.indisprimary AND n.nspname = $1 AND c.relname = $2
      ORDER BY k.ord`,
    [storedName(schema), storedName(table)],
  );
  return rows.map((r) => r.attname);
}
