// The `sqlite` driver: SQLite as WebAssembly (node-sqlite3-wasm, nothing native to install) behind
// the same pool face as postgres and mysql. SQLite is synchronous and a file allows one writer, so
// every component of the process that names the same file shares one handle, and a mutex keeps a
// batch's transaction from interleaving with another component's statements.
import { resolve } from 'node:path';
import type { Database as WasmDatabase } from 'node-sqlite3-wasm';
import { Timestamp } from '../../bloblang/library.js';
import type { Pool, Row, SqlSession } from './pool.js';

// Loaded on first connect: instantiating SQLite's WebAssembly costs every start otherwise.
let sqliteWasm: typeof import('node-sqlite3-wasm') | undefined;

export async function loadSqlite(): Promise<void> {
  // A CommonJS package: its exports are the namespace's default when imported from ESM.
  sqliteWasm ??= (await import('node-sqlite3-wasm')).default;
}

export interface SqliteTarget {
  /** A file path, or `:memory:`. */
  path: string;
  readOnly: boolean;
  /** `PRAGMA name = value` statements run on open, from `_pragma=name(value)`. */
  pragmas: string[];
  /** How a batch's transaction starts: BEGIN, BEGIN IMMEDIATE or BEGIN EXCLUSIVE (`_txlock`). */
  begin: string;
}

/**
 * The DSN forms of the reference's driver (modernc.org/sqlite): a plain path, `:memory:`, or a
 * `file:` URI with `mode=ro|rw|rwc|memory`, `_pragma=name(value)` (repeatable) and
 * `_txlock=deferred|immediate|exclusive`. Other parameters are accepted and ignored.
 */
export function parseSqliteDsn(dsn: string): SqliteTarget {
  let text = dsn.trim();
  if (text === '') throw new Error('sqlite dsn is empty: give a file path, file:PATH or :memory:');
  let query = '';
  if (/^file:/i.test(text)) {
    text = text.slice(5);
    const q = text.indexOf('?');
    if (q >= 0) {
      query = text.slice(q + 1);
      text = text.slice(0, q);
    }
    // file:///abs/path and file://localhost/abs/path are URIs with an authority.
    text = text.replace(/^\/\/(localhost)?(?=\/)/, '');
    text = decodeURIComponent(text);
  } else {
    const q = text.indexOf('?');
    if (q >= 0) {
      query = text.slice(q + 1);
      text = text.slice(0, q);
    }
  }
  const params = new URLSearchParams(query);
  const mode = params.get('mode')?.toLowerCase();
  const path = text === '' || text === ':memory:' || mode === 'memory' ? ':memory:' : text;
  const pragmas = params.getAll('_pragma').map((p) => {
    const m = /^\s*([A-Za-z_][\w]*)\s*(?:\((.*)\))?\s*$/.exec(p);
    if (!m) throw new Error(`sqlite dsn: _pragma '${p}' must look like name(value)`);
    return m[2] === undefined ? `PRAGMA ${m[1]}` : `PRAGMA ${m[1]} = ${m[2]}`;
  });
  const lock = params.get('_txlock')?.toLowerCase() ?? 'deferred';
  if (!['deferred', 'immediate', 'exclusive'].includes(lock))
    throw new Error(`sqlite dsn: _txlock must be deferred, immediate or exclusive, not '${lock}'`);
  return {
    path,
    readOnly: mode === 'ro',
    pragmas,
    begin: lock === 'deferred' ? 'BEGIN' : `BEGIN ${lock.toUpperCase()}`,
  };
}

/** The path of a DSN, for logs and errors (a SQLite DSN holds no password). */
export function describeSqlite(dsn: string): string {
  try {
    return `sqlite ${parseSqliteDsn(dsn).path}`;
  } catch {
    return 'sqlite';
  }
}

/** A SQLite argument from a Bloblang value: timestamps as RFC 3339 text, objects as JSON text. */
function sqliteArg(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (v instanceof Timestamp) return new Date(Number(v.epochNs / 1_000_000n)).toISOString();
  if (v instanceof Date) return v.toISOString();
  if (v instanceof Uint8Array) return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  // Out of int64's range SQLite would wrap the integer; as text it keeps its digits.
  if (typeof v === 'bigint') return v >= -(2n ** 63n) && v < 2n ** 63n ? v : v.toString();
  if (typeof v === 'object') return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x));
  return v;
}

/** A row as plain JSON values: blobs as text (as the reference does), safe integers as numbers. */
function sqliteRow(row: Record<string, unknown>): Row {
  for (const k of Object.keys(row)) {
    const v = row[k];
    if (v instanceof Uint8Array) row[k] = Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('utf8');
    else if (
      typeof v === 'bigint' &&
      v >= BigInt(Number.MIN_SAFE_INTEGER) &&
      v <= BigInt(Number.MAX_SAFE_INTEGER)
    )
      row[k] = Number(v);
  }
  return row;
}

/** One open database shared by the components naming the same file, with a queue for its use. */
class SqliteHandle {
  private tail: Promise<unknown> = Promise.resolve();
  refs = 0;

  constructor(
    readonly db: WasmDatabase,
    readonly key: string | null,
  ) {}

  /** Runs fn when every earlier user is done; nothing else touches the database meanwhile. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.tail.then(fn, fn);
    this.tail = run.catch(() => undefined);
    return run;
  }
}

const handles = new Map<string, SqliteHandle>();

function openHandle(target: SqliteTarget): SqliteHandle {
  const wasm = sqliteWasm;
  if (!wasm) throw new Error('SQLite is not loaded');
  // `:memory:` is private to its component, as each connection's is in the reference.
  const key = target.path === ':memory:' ? null : `${resolve(target.path)}${target.readOnly ? ' (ro)' : ''}`;
  const shared = key ? handles.get(key) : undefined;
  if (shared) {
    shared.refs++;
    return shared;
  }
  const db = new wasm.Database(target.path, { readOnly: target.readOnly });
  try {
    for (const pragma of target.pragmas) db.all(pragma);
  } catch (err) {
    db.close();
    throw err;
  }
  const handle = new SqliteHandle(db, key);
  handle.refs = 1;
  if (key) handles.set(key, handle);
  return handle;
}

function releaseHandle(handle: SqliteHandle): void {
  if (--handle.refs > 0) return;
  if (handle.key) handles.delete(handle.key);
  if (handle.db.isOpen) handle.db.close();
}

export interface SqlitePool extends Pool {
  /** Runs a whole file of statements (init_files), which query() would stop after the first of. */
  exec(sql: string): Promise<void>;
}

/** Opens (creating the file unless read-only) the database of a DSN; loadSqlite() first. */
export function openSqlite(dsn: string): SqlitePool {
  const target = parseSqliteDsn(dsn);
  const handle = openHandle(target);
  let closed = false;
  const run = (sql: string, args?: readonly unknown[]): Row[] => {
    if (closed) throw new Error('database is closed');
    const values = (args ?? []).map(sqliteArg) as Parameters<WasmDatabase['all']>[1];
    return (handle.db.all(sql, values) as Record<string, unknown>[]).map(sqliteRow);
  };
  const session: SqlSession = { query: async (sql, args) => run(sql, args) };
  return {
    query: (sql, args) => handle.exclusive(async () => run(sql, args)),
    transaction: (fn) =>
      handle.exclusive(async () => {
        run(target.begin);
        try {
          const out = await fn(session);
          run('COMMIT');
          return out;
        } catch (err) {
          if (handle.db.inTransaction) handle.db.exec('ROLLBACK');
          throw err;
        }
      }),
    exec: (sql) =>
      handle.exclusive(async () => {
        handle.db.exec(sql);
      }),
    close: async () => {
      if (closed) return;
      closed = true;
      await handle.exclusive(async () => releaseHandle(handle));
    },
  };
}
