// The two local databases the sql tests run against, with a unique table name per test run and
// a direct client to set up and check tables (never through the component under test).
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import { spec as insertOutput, type SqlInsertConfig } from '../../../src/components/outputs/sql_insert.js';
import { parseFields } from '../../../src/config/spec.js';
import { createTestContext } from '../../helpers/context.js';
import { MARIADB_DSN, POSTGRES_DSN, postgresPool, type ServiceName } from '../../helpers/kit.js';
import { configOf } from '../reference.js';

export interface TestDatabase {
  name: 'postgres' | 'mariadb';
  service: ServiceName;
  driver: 'postgres' | 'mysql';
  dsn: string;
  /** The placeholder of the n-th argument. */
  ph(n: number): string;
  /**
   * A DSN whose connections can be told apart (postgres: application_name; mariadb: a user made
   * for the test), and a function that kills every connection opened through it.
   */
  isolated(): Promise<{ dsn: string; kill(): Promise<number>; drop(): Promise<void> }>;
  /** Runs SQL directly; returns rows. */
  sql(text: string, args?: unknown[]): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

export function uniqueTable(prefix = 'nekton_sql'): string {
  return `${prefix}_${randomBytes(4).toString('hex')}`;
}

export { MARIADB_DSN, POSTGRES_DSN };

export function postgres(): TestDatabase {
  const pool = postgresPool();
  return {
    name: 'postgres',
    service: 'postgres',
    driver: 'postgres',
    dsn: POSTGRES_DSN,
    ph: (n) => `$${n}`,
    async isolated() {
      const app = uniqueTable('nekton_app');
      return {
        dsn: `${POSTGRES_DSN}&application_name=${app}`,
        kill: async () =>
          (
            await pool.query(
              'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
              [app],
            )
          ).rowCount ?? 0,
        drop: async () => undefined,
      };
    },
    async sql(text, args) {
      return (await pool.query(text, args)).rows;
    },
    close: () => pool.end(),
  };
}

export function mariadb(): TestDatabase {
  const pool = mysql.createPool({
    host: '127.0.0.1',
    port: 3306,
    user: 'root',
    database: 'test',
    connectionLimit: 2,
  });
  return {
    name: 'mariadb',
    service: 'mariadb',
    driver: 'mysql',
    dsn: MARIADB_DSN,
    ph: () => '?',
    async isolated() {
      const user = uniqueTable('nk');
      await pool.query(`CREATE USER '${user}'@'%'`);
      await pool.query(`GRANT ALL ON test.* TO '${user}'@'%'`);
      return {
        dsn: `${user}@tcp(127.0.0.1:3306)/test`,
        async kill() {
          const [rows] = await pool.query('SELECT ID FROM information_schema.PROCESSLIST WHERE USER = ?', [
            user,
          ]);
          const ids = (rows as { ID: number }[]).map((r) => r.ID);
          for (const id of ids) await pool.query(`KILL CONNECTION ${id}`).catch(() => undefined);
          return ids.length;
        },
        async drop() {
          await pool.query(`DROP USER IF EXISTS '${user}'@'%'`);
        },
      };
    },
    async sql(text, args) {
      const [rows] = await pool.query(text, args);
      return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [];
    },
    close: () => pool.end(),
  };
}

/** An sql_insert config as its factory receives it (defaults filled, durations and mappings parsed). */
export function parsedInsertConfig(given: Record<string, unknown>): SqlInsertConfig {
  return parseFields(insertOutput.fields, configOf(insertOutput, given), createTestContext());
}
