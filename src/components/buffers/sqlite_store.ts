// The SQLite file behind the `sqlite` buffer: one row per stored batch, deleted once delivered.
// SQLite runs as WebAssembly (node-sqlite3-wasm) over node's fs, so nothing native is installed.
// Its VFS locks a database with a `<path>.lock` directory; a process killed with -9 leaves that
// directory behind, so the store records its owner's pid beside the file and clears a lock whose
// owner is gone before opening.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Encoder, ExtensionCodec } from '@msgpack/msgpack';
import type { Database as WasmDatabase } from 'node-sqlite3-wasm';
import { msgpackNow } from '../../base/lazy_packages.js';
import { type Batch, Message, type Metadata } from '../../message/message.js';
import { JsonNumber, Timestamp } from '../../message/value.js';

type Db = WasmDatabase;
type Stmt = ReturnType<Db['prepare']>;

// Loaded when the first store opens: instantiating SQLite's WebAssembly costs every start otherwise.
let sqliteWasm: typeof import('node-sqlite3-wasm') | undefined;

/** Opens (creating it when absent) the store at `path`. */
export async function openStore(path: string): Promise<SqliteStore> {
  // A CommonJS package: its exports are the namespace's default when imported from ESM.
  sqliteWasm ??= (await import('node-sqlite3-wasm')).default;
  return new SqliteStore(path);
}

/** One stored batch: [content, metadata entries] per message. */
type StoredMessage = [Uint8Array, [string, unknown][]];

// Metadata values keep their kind across a restart: timestamps (with their zone) and numbers kept
// as text get extension types; big integers are msgpack's 64-bit integers.
let codec: { extensions: ExtensionCodec; encoder: Encoder } | undefined;
/** Made with the first store (msgpack is loaded on first use, see lazy_packages.ts). */
function storeCodec(): { extensions: ExtensionCodec; encoder: Encoder } {
  if (codec) return codec;
  const { Encoder, ExtensionCodec } = msgpackNow();
  const extensions = new ExtensionCodec();
  extensions.register({
    type: 1,
    encode: (v) => (v instanceof Timestamp ? new TextEncoder().encode(`${v.epochNs} ${v.zone}`) : null),
    decode: (data) => {
      const [ns, zone] = new TextDecoder().decode(data).split(' ') as [string, string];
      return new Timestamp(BigInt(ns), zone);
    },
  });
  extensions.register({
    type: 2,
    encode: (v) => (v instanceof JsonNumber ? new TextEncoder().encode(v.text) : null),
    decode: (data) => new JsonNumber(new TextDecoder().decode(data)),
  });
  codec = { extensions, encoder: new Encoder({ extensionCodec: extensions, useBigInt64: true }) };
  return codec;
}

/** Integers that fit a double come back as numbers, as nekton's values hold them. */
function safeInts(v: unknown): unknown {
  if (typeof v === 'bigint')
    return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
  if (Array.isArray(v)) return v.map(safeInts);
  if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype)
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, safeInts(x)]));
  return v;
}

export function encodeBatch(batch: Batch): Uint8Array {
  const rows: StoredMessage[] = batch.map((msg) => [msg.bytes(), [...msg.metadata()]]);
  return storeCodec().encoder.encode(rows);
}

export function decodeBatch(content: Uint8Array): Batch {
  const rows = (
    msgpackNow().decode(content, {
      extensionCodec: storeCodec().extensions,
      useBigInt64: true,
    }) as StoredMessage[]
  ).map(([bytes, meta]) => [bytes, meta.map(([k, v]) => [k, safeInts(v)])] as StoredMessage);
  return rows.map(([bytes, meta]) => new Message(bytes, new Map(meta) as Metadata));
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Claims the database for this process, clearing the lock a killed owner left behind. */
function claim(path: string): string {
  const ownerFile = `${path}.owner`;
  if (existsSync(ownerFile)) {
    const pid = Number(readFileSync(ownerFile, 'utf8').trim());
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && processAlive(pid)) {
      throw new Error(`sqlite buffer ${path} is in use by process ${pid}`);
    }
  }
  // The owner is gone (or was this process): its lock directory is stale.
  rmSync(`${path}.lock`, { recursive: true, force: true });
  writeFileSync(ownerFile, String(process.pid));
  return ownerFile;
}

export interface StoredRow {
  id: number;
  batch: Batch;
}

/** The messages table. Every call is synchronous: a committed write is in the file on return. */
export class SqliteStore {
  private readonly db: Db;
  private readonly ownerFile: string | null;
  private readonly insert: Stmt;
  private readonly remove: Stmt;
  private readonly after: Stmt;
  private readonly byId: Stmt;
  private closed = false;

  /** Use `openStore`, which loads SQLite first. */
  constructor(path: string) {
    if (!sqliteWasm) throw new Error('SQLite is not loaded: open stores with openStore()');
    this.ownerFile = path === ':memory:' ? null : claim(path);
    this.db = new sqliteWasm.Database(path);
    try {
      // One process owns the file: an exclusive lock lets SQLite use a write-ahead log without
      // shared memory. Each commit is written to the log before the input is acknowledged, so a
      // killed process loses nothing; `synchronous = NORMAL` leaves the fsync to checkpoints, as
      // the reference (which sets `synchronous = 0`) does not fsync either.
      this.db.exec('PRAGMA locking_mode = EXCLUSIVE');
      this.db.get('PRAGMA journal_mode = WAL');
      this.db.exec('PRAGMA synchronous = NORMAL');
      this.db.exec(
        'CREATE TABLE IF NOT EXISTS messages (id INTEGER PRIMARY KEY AUTOINCREMENT, content BLOB NOT NULL, requeue INTEGER NOT NULL)',
      );
      this.insert = this.db.prepare('INSERT INTO messages (content, requeue) VALUES (?, 0)');
      this.remove = this.db.prepare('DELETE FROM messages WHERE id = ?');
      this.after = this.db.prepare('SELECT id, content FROM messages WHERE id > ? ORDER BY id LIMIT 1');
      this.byId = this.db.prepare('SELECT id, content FROM messages WHERE id = ?');
    } catch (err) {
      this.db.close();
      throw err;
    }
  }

  /** Stores the batches in one transaction; returns their row ids. */
  add(batches: readonly Batch[]): number[] {
    const ids: number[] = [];
    this.db.exec('BEGIN');
    try {
      for (const batch of batches) ids.push(Number(this.insert.run([encodeBatch(batch)]).lastInsertRowid));
      this.db.exec('COMMIT');
    } catch (err) {
      this.db.exec('ROLLBACK');
      throw err;
    }
    return ids;
  }

  /** The first stored row after `id`, or null. */
  next(afterId: number): StoredRow | null {
    return this.toRow(this.after.get([afterId]));
  }

  get(id: number): StoredRow | null {
    return this.toRow(this.byId.get([id]));
  }

  delete(id: number): void {
    this.remove.run([id]);
  }

  count(): number {
    const row = this.db.get('SELECT count(*) AS n FROM messages') as { n: number } | null;
    return row?.n ?? 0;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const stmt of [this.insert, this.remove, this.after, this.byId]) stmt.finalize();
    this.db.close();
    if (this.ownerFile) rmSync(this.ownerFile, { force: true });
  }

  private toRow(row: unknown): StoredRow | null {
    if (!row) return null;
    const { id, content } = row as { id: number; content: Uint8Array };
    return { id, batch: decodeBatch(content) };
  }
}
