// One database connection pool behind a small driver-neutral face (pg for postgres, mysql2 for
// mysql/MariaDB, SQLite as WebAssembly for sqlite): statements with positional arguments,
// transactions, rows as plain JSON values.
import { readFile } from 'node:fs/promises';
import type * as MysqlModule from 'mysql2/promise';
import type PgModule from 'pg';
import type { Logger } from 'pino';
import { nodeCrypto } from '../../base/lazy_builtins.js';
import { Timestamp } from '../../bloblang/library.js';
import { ConfigError, errorMessage, NotConnectedError } from '../../engine/errors.js';
import { expandPaths } from '../inputs/file.js';
import { describeTarget, dialectOf, parseMysqlDsn, type SqlDialect } from './dsn.js';
import type { SqlConnectionConfig } from './fields.js';
import type { Pool, QueryOptions, Row, SqlSession } from './pool.js';
import { loadSqlite, openSqlite, type SqlitePool } from './sqlite.js';

export type { QueryOptions, Row, SqlSession };

// Error codes that mean the connection (not the statement) failed: reconnect, then retry.
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08003',
  '08006',
  '08001',
  '08004',
]);

function isConnectionError(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
  return /Connection terminated|connection is closed|Pool is closed|not queryable|Can't add new command when connection is in closed state/i.test(
    errorMessage(err),
  );
}

/** A JSON-friendly value from a driver value: dates as RFC 3339, bytes as text, as the reference does. */
function jsonValue(v: unknown): unknown {
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  return v;
}

function jsonRow(row: Row): Row {
  for (const k of Object.keys(row)) row[k] = jsonValue(row[k]);
  return row;
}

/** A driver argument from a Bloblang value: timestamps as Date, bytes as Buffer, objects as JSON text. */
function driverArg(v: unknown, dialect: SqlDialect): unknown {
  if (v === null || v === undefined) return null;
  if (v instanceof Timestamp) return new Date(Number(v.epochNs / 1_000_000n));
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'object' && !(v instanceof Date))
    return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x));
  if (typeof v === 'boolean' && dialect === 'mysql') return v ? 1 : 0;
  return v;
}

function pgInt8(text: string): number | bigint {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : BigInt(text);
}

// The drivers are loaded on first connect: a process that uses no SQL component never pays for them.
let pg: typeof PgModule | undefined;
let mysql: typeof MysqlModule | undefined;

async function loadDriver(dialect: SqlDialect): Promise<void> {
  if (dialect === 'postgres') pg ??= (await import('pg')).default;
  else if (dialect === 'mysql') mysql ??= await import('mysql2/promise');
  else await loadSqlite();
}

const pgTypes = {
  getTypeParser(oid: number, format?: string) {
    if (oid === 20 && format !== 'binary') return pgInt8;
    return (pg as typeof PgModule).types.getTypeParser(oid, format as 'text');
  },
};

// 26000: prepared statement does not exist; 42P05: it exists already. Both mean the connection the
// driver prepared on is not the one the statement reached.
const NAMED_STATEMENT_CODES = new Set(['26000', '42P05']);

const statementNames = new Map<string, string>();

/** A prepared statement's name from its text: the same text, the same name on every connection. */
function statementName(sql: string): string {
  let name = statementNames.get(sql);
  if (name === undefined) {
    // Callers reuse few texts; the bound only guards against one that does not.
    if (statementNames.size >= 64) statementNames.clear();
    name = `nekton_${nodeCrypto().createHash('sha1').update(sql).digest('hex').slice(0, 32)}`;
    statementNames.set(sql, name);
  }
  return name;
}

function openPostgres(config: SqlConnectionConfig, onError: (err: Error) => void): Pool {
  const idle = config.conn_max_idle_time ?? 0;
  const life = config.conn_max_life_time ?? 0;
  const pool = new (pg as typeof PgModule).Pool({
    connectionString: config.dsn,
    max: config.conn_max_open && config.conn_max_open > 0 ? config.conn_max_open : 10,
    idleTimeoutMillis: idle > 0 ? idle : 10_000,
    maxLifetimeSeconds: life > 0 ? Math.ceil(life / 1000) : 0,
    connectionTimeoutMillis: 10_000,
    types: pgTypes,
  });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', onError);
  // Named statements are dropped for good when the server side refuses them (a pooler such as
  // PgBouncer in transaction mode hands each statement to another connection): the failed batch is
  // retried unnamed.
  let named = true;
  const run = async (
    q: PgModule.Pool | PgModule.PoolClient,
    sql: string,
    args?: readonly unknown[],
    options?: QueryOptions,
  ): Promise<Row[]> => {
    const params = args?.map((a) => driverArg(a, 'postgres'));
    const name = named && options?.reuse ? statementName(sql) : undefined;
    try {
      const res = await q.query({ text: sql, values: params, name });
      const rows = Array.isArray(res) ? (res.at(-1)?.rows ?? []) : res.rows;
      return (rows as Row[]).map(jsonRow);
    } catch (err) {
      if (name && NAMED_STATEMENT_CODES.has((err as { code?: string }).code ?? '')) named = false;
      throw err;
    }
  };
  return {
    query: (sql, args, options) => run(pool, sql, args, options),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const out = await fn({ query: (sql, args, options) => run(client, sql, args, options) });
        await client.query('COMMIT');
        client.release();
        return out;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        client.release(isConnectionError(err) ? (err as Error) : undefined);
        throw err;
      }
    },
    close: () => pool.end(),
  };
}

function openMysql(config: SqlConnectionConfig): Pool {
  const target = parseMysqlDsn(config.dsn);
  const idle = config.conn_max_idle_time ?? 0;
  const pool = (mysql as typeof MysqlModule).createPool({
    ...target,
    connectionLimit: config.conn_max_open && config.conn_max_open > 0 ? config.conn_max_open : 10,
    maxIdle: Math.max(0, config.conn_max_idle ?? 2),
    idleTimeout: idle > 0 ? idle : 60_000,
    connectTimeout: 10_000,
    supportBigNumbers: true,
    dateStrings: false,
    timezone: 'Z',
  });
  const run = async (
    q: MysqlModule.Pool | MysqlModule.PoolConnection,
    sql: string,
    args?: readonly unknown[],
  ) => {
    const params = args?.map((a) => driverArg(a, 'mysql'));
    const [rows] = await q.query(sql, params);
    return Array.isArray(rows) ? (rows as Row[]).map((r) => jsonRow({ ...r })) : [];
  };
  return {
    query: (sql, args) => run(pool, sql, args),
    async transaction(fn) {
      const conn = await pool.getConnection();
      try {
        await conn.beginTransaction();
        const out = await fn({ query: (sql, args) => run(conn, sql, args) });
        await conn.commit();
        conn.release();
        return out;
      } catch (err) {
        await conn.rollback().catch(() => undefined);
        if (isConnectionError(err)) conn.destroy();
        else conn.release();
        throw err;
      }
    },
    close: () => pool.end(),
  };
}

/** Runs init files and statement once; mysql needs multi-statement mode for whole files. */
async function runInit(config: SqlConnectionConfig, dialect: SqlDialect, pool: Pool): Promise<void> {
  const statements: string[] = [];
  // The element type admits undefined (the field is optional); a list never holds it.
  const files = (config.init_files ?? []).filter((f) => f !== undefined);
  for (const path of await expandPaths(files)) statements.push(await readFile(path, 'utf8'));
  if (config.init_statement?.trim()) statements.push(config.init_statement);
  if (statements.length === 0) return;
  if (dialect === 'sqlite') {
    // On the pool's own handle: a `:memory:` database exists only there.
    for (const s of statements) await (pool as SqlitePool).exec(s);
    return;
  }
  if (dialect === 'postgres') {
    for (const s of statements) await pool.query(s);
    return;
  }
  const conn = await (mysql as typeof MysqlModule).createConnection({
    ...parseMysqlDsn(config.dsn),
    multipleStatements: true,
  });
  try {
    for (const s of statements) await conn.query(s);
  } finally {
    await conn.end().catch(() => undefined);
  }
}

/**
 * A component's database: opened by connect() (which proves the server answers and runs the init
 * statements the first time), used through query()/transaction() which turn a lost connection
 * into NotConnectedError so the engine reconnects, and name the address in every error.
 */
export class SqlDatabase {
  readonly dialect: SqlDialect;
  readonly address: string;
  private pool: Pool | null = null;
  private initialised = false;
  private closed = false;
  private readonly logger: Logger;

  /** A driver nekton has no client for fails here, at build time: retrying could never help. */
  constructor(
    private readonly config: SqlConnectionConfig,
    component: { logger: Logger; path: string },
  ) {
    this.logger = component.logger;
    try {
      this.dialect = dialectOf(config.driver);
    } catch (err) {
      throw new ConfigError(`${component.path}.driver: ${errorMessage(err)}`);
    }
    this.address = describeTarget(this.dialect, config.dsn);
  }

  /** `$n` for postgres, `?` for mysql and sqlite: the placeholder of the n-th (1-based) argument. */
  placeholder(n: number): string {
    return this.dialect === 'postgres' ? `$${n}` : '?';
  }

  /** The most placeholders one statement may hold (SQLite's SQLITE_MAX_VARIABLE_NUMBER is lower). */
  get maxParameters(): number {
    return this.dialect === 'sqlite' ? 32_766 : 65_535;
  }

  async connect(): Promise<void> {
    if (this.pool) return;
    this.closed = false;
    const dialect = this.dialect;
    let pool: Pool;
    await loadDriver(dialect);
    try {
      pool =
        dialect === 'postgres'
          ? openPostgres(this.config, (err) =>
              this.logger.warn(`${this.address}: idle connection failed: ${err.message}`),
            )
          : dialect === 'mysql'
            ? openMysql(this.config)
            : openSqlite(this.config.dsn);
    } catch (err) {
      throw new Error(`${this.address}: ${errorMessage(err)}`);
    }
    try {
      await pool.query('SELECT 1');
      if (!this.initialised) await runInit(this.config, dialect, pool);
    } catch (err) {
      await pool.close().catch(() => undefined);
      throw new Error(`${this.address}: ${describeError(err)}`);
    }
    this.initialised = true;
    // Closed while connecting (a stream stopped early): do not leave a pool holding the process open.
    if (this.closed) {
      await pool.close().catch(() => undefined);
      throw new Error(`${this.address}: closed`);
    }
    this.pool = pool;
  }

  isConnected(): boolean {
    return this.pool !== null;
  }

  query(sql: string, args?: readonly unknown[], options?: QueryOptions): Promise<Row[]> {
    return this.use((pool) => pool.query(sql, args, options));
  }

  transaction<T>(fn: (session: SqlSession) => Promise<T>): Promise<T> {
    return this.use((pool) => pool.transaction(fn));
  }

  async close(): Promise<void> {
    this.closed = true;
    const pool = this.pool;
    this.pool = null;
    await pool?.close().catch(() => undefined);
  }

  private async use<T>(fn: (pool: Pool) => Promise<T>): Promise<T> {
    const pool = this.pool;
    if (!pool) throw new NotConnectedError(`${this.address}: not connected`);
    try {
      return await fn(pool);
    } catch (err) {
      if (isConnectionError(err)) {
        this.pool = null;
        pool.close().catch(() => undefined);
        throw new NotConnectedError(`${this.address}: ${describeError(err)}`);
      }
      throw new Error(`${this.address}: ${describeError(err)}`);
    }
  }
}

/** The driver's message plus the detail servers attach (constraint, detail) — an AggregateError's parts too. */
function describeError(err: unknown): string {
  if (err instanceof AggregateError && err.errors.length > 0 && !err.message)
    return err.errors.map((e) => errorMessage(e)).join('; ');
  const e = err as { message?: string; detail?: string; code?: string };
  const base = e.message || (e.code ? String(e.code) : errorMessage(err));
  return e.detail ? `${base} (${e.detail})` : base;
}

/** For processors (no engine wrapper): connects on first use, and again after a failed connect or a lost connection. */
export function connectOnUse(db: SqlDatabase): () => Promise<void> {
  let connecting: Promise<void> | null = null;
  let settled = false;
  return () => {
    // A settled connect whose pool was dropped since (connection lost): start over.
    if (connecting && settled && !db.isConnected()) connecting = null;
    if (!connecting) {
      settled = false;
      connecting = db.connect().then(
        () => {
          settled = true;
        },
        (err) => {
          connecting = null;
          throw err;
        },
      );
    }
    return connecting;
  };
}
