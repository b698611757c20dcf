// The mysql_cdc reader: optional consistent snapshot, then binlog row events (read with
// @vlasky/zongji) from the position in the checkpoint cache. The position stored there moves only
// to a transaction boundary whose changes, and every earlier one, were acknowledged downstream.
import type ZongJiType from '@vlasky/zongji';
import type { BinlogEvent, DeleteRowsEvent, UpdateRowsEvent, WriteRowsEvent } from '@vlasky/zongji';
import type { SslOptions } from 'mysql2';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import type { Logger } from 'pino';
import type { InputReader, Transaction } from '../../engine/component.js';
import type { Resources } from '../../engine/context.js';
import { errorMessage } from '../../engine/errors.js';
import { Message } from '../../message/message.js';
import type { TlsOptions } from '../fields/tls.js';
import type { MysqlTarget } from '../sql/dsn.js';
import { ChangeQueue } from './change_queue.js';
import { OrderedCheckpoint } from './checkpoint.js';
import { type BinlogPosition, formatPosition, parsePosition } from './mysql_position.js';
import { beginSnapshot, binlogStatus, isMariadb, readTable } from './mysql_snapshot.js';

export interface MysqlCdcSettings {
  tables: string[];
  checkpoint_cache: string;
  checkpoint_key: string;
  snapshot_max_batch_size: number;
  stream_snapshot: boolean;
  checkpoint_limit: number;
}

interface Pending {
  message: Message;
  done: () => BinlogPosition | undefined;
}

type RowsEvent = WriteRowsEvent | UpdateRowsEvent | DeleteRowsEvent;

/** JSON-ready column values: Buffers as base64, 64-bit integers as numbers when exact. */
function normalise(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    if (Buffer.isBuffer(v)) out[k] = v.toString('base64');
    else if (typeof v === 'bigint') out[k] = Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
    else out[k] = v;
  }
  return out;
}

export class MysqlCdcReader implements InputReader {
  private conn: Connection | null = null;
  private zongji: ZongJiType | null = null;
  private readonly changes = new ChangeQueue<Pending>('mysql_cdc');
  /** Reads waiting for a change (the engine may have more than one running). */
  private checkpoint: OrderedCheckpoint<BinlogPosition>;
  private storing: Promise<void> = Promise.resolve();
  private paused = false;
  private readonly state = { closed: false };
  private readonly where: string;

  constructor(
    private readonly config: MysqlCdcSettings,
    private readonly target: MysqlTarget & { ssl?: TlsOptions },
    private readonly resources: Resources,
    private readonly logger: Logger,
  ) {
    this.checkpoint = new OrderedCheckpoint(config.checkpoint_limit);
    this.where = `${target.socketPath ?? `${target.host}:${target.port}`}/${target.database ?? ''}`;
  }

  private connectionOptions() {
    const t = this.target;
    return {
      host: t.host,
      port: t.port,
      user: t.user,
      password: t.password,
      database: t.database,
      ...(t.socketPath ? { socketPath: t.socketPath } : {}),
      // node:tls options, which mysql2 hands to tls.connect as they are.
      ...(t.ssl ? { ssl: t.ssl as unknown as SslOptions } : {}),
      supportBigNumbers: true,
    };
  }

  async connect(): Promise<void> {
    await this.teardown();
    this.changes.reset();
    this.checkpoint.release();
    this.checkpoint = new OrderedCheckpoint(this.config.checkpoint_limit);
    const database = this.target.database;
    if (!database) throw new Error('mysql_cdc: dsn: the DSN must name a database (…/dbname)');
    const mysql = await import('mysql2/promise');
    let conn: Connection;
    try {
      conn = await mysql.createConnection(this.connectionOptions());
    } catch (err) {
      throw new Error(`mysql_cdc: dsn: cannot connect to ${this.where}: ${errorMessage(err)}`);
    }
    conn.on('error', () => undefined);
    this.conn = conn;
    const [vars] = await conn.query<RowDataPacket[]>(
      'SELECT @@log_bin AS log_bin, @@binlog_format AS format',
    );
    if (Number(vars[0]?.log_bin) !== 1 || String(vars[0]?.format).toUpperCase() !== 'ROW')
      throw new Error(
        `mysql_cdc: the server at ${this.where} needs log_bin on and binlog_format=ROW (log_bin=${vars[0]?.log_bin}, binlog_format=${vars[0]?.format})`,
      );
    const stored = await this.loadCheckpoint();
    let start: BinlogPosition;
    if (stored) {
      start = stored;
      await this.checkExists(conn, stored);
      this.logger.info(`mysql_cdc: resuming from binlog position ${formatPosition(stored)}`);
    } else if (this.config.stream_snapshot) {
      start = await beginSnapshot(conn, await isMariadb(conn));
      this.logger.info(`mysql_cdc: snapshot at binlog position ${formatPosition(start)}`);
      void this.snapshotThenStream(conn, database, start);
      return;
    } else {
      start = await binlogStatus(conn);
      // Stored at once: a crash before the first commit must not skip what came after this point.
      await this.store(start);
    }
    await this.startStream(database, start);
  }

  private async snapshotThenStream(conn: Connection, database: string, start: BinlogPosition): Promise<void> {
    try {
      for (const table of this.config.tables) {
        await readTable(
          conn,
          database,
          table,
          this.config.snapshot_max_batch_size,
          async (row) => {
            const message = Message.fromStructured(normalise(row));
            message.setMeta('operation', 'read');
            message.setMeta('table', table);
            await this.checkpoint.room(this.state);
            this.push(message, undefined);
          },
          () => this.state.closed,
        );
      }
      await conn.query('COMMIT');
      if (this.state.closed) return;
      // Once every snapshot row was acknowledged, the snapshot's own position is the checkpoint.
      this.passPosition(start);
      await this.startStream(database, start);
    } catch (err) {
      this.fail(err instanceof Error ? err : new Error(String(err)));
    }
  }

  private async loadCheckpoint(): Promise<BinlogPosition | undefined> {
    const { checkpoint_cache: cache, checkpoint_key: key } = this.config;
    let bytes: Uint8Array | undefined;
    try {
      bytes = await this.resources.useCache(cache, (c) => c.get(key));
    } catch (err) {
      throw new Error(
        `mysql_cdc: checkpoint_cache: cannot read '${key}' from cache '${cache}': ${errorMessage(err)}`,
      );
    }
    if (!bytes) return undefined;
    try {
      return parsePosition(Buffer.from(bytes).toString('utf8'));
    } catch (err) {
      throw new Error(`mysql_cdc: checkpoint_key '${key}': ${errorMessage(err)}`);
    }
  }

  /** A stored position whose binlog file the server no longer has is an error naming both. */
  private async checkExists(conn: Connection, at: BinlogPosition): Promise<void> {
    const [logs] = await conn.query<RowDataPacket[]>('SHOW BINARY LOGS');
    const file = logs.find((l) => l.Log_name === at.file);
    const reason = !file
      ? `the server has no binlog file '${at.file}' (purged, or another server)`
      : Number(file.File_size) < at.pos
        ? `binlog file '${at.file}' is only ${file.File_size} bytes long`
        : '';
    if (reason)
      throw new Error(
        `mysql_cdc: checkpoint_key '${this.config.checkpoint_key}': binlog position ${formatPosition(at)} is gone: ${reason}; delete the key to start again`,
      );
  }

  private async startStream(database: string, start: BinlogPosition): Promise<void> {
    const { default: ZongJi } = await import('@vlasky/zongji');
    const zongji = new ZongJi(this.connectionOptions());
    this.zongji = zongji;
    zongji.on('error', (err: Error) => {
      if (zongji === this.zongji) this.fail(err);
    });
    zongji.on('binlog', (event: BinlogEvent) => this.onEvent(zongji, event));
    await new Promise<void>((resolve, reject) => {
      zongji.once('ready', () => resolve());
      zongji.once('error', reject);
      zongji.start({
        // Each reader is a replica with its own id (the server's is usually 1).
        serverId: 100_000 + Math.floor(Math.random() * 1_000_000_000),
        filename: start.file,
        position: start.pos,
        includeEvents: ['tablemap', 'writerows', 'updaterows', 'deleterows', 'xid', 'query', 'rotate'],
        includeSchema: { [database]: this.config.tables },
      });
    });
    this.logger.info(`mysql_cdc: streaming ${this.config.tables.join(', ')} from ${formatPosition(start)}`);
  }

  private onEvent(zongji: ZongJiType, event: BinlogEvent): void {
    if (this.state.closed || zongji !== this.zongji) return;
    const name = event.getEventName();
    const options = zongji.options as { filename?: string; position?: number };
    if (name === 'writerows' || name === 'updaterows' || name === 'deleterows') {
      const rows = event as RowsEvent;
      const table = rows.tableMap[rows.tableId]?.tableName ?? '';
      const position = formatPosition({ file: options.filename ?? '', pos: rows.nextPosition });
      const operation = name === 'writerows' ? 'insert' : name === 'updaterows' ? 'update' : 'delete';
      for (const row of rows.rows) {
        const update =
          operation === 'update'
            ? (row as { before: Record<string, unknown>; after: Record<string, unknown> })
            : null;
        const message = Message.fromStructured(
          normalise(update ? update.after : (row as Record<string, unknown>)),
        );
        message.setMeta('operation', operation);
        message.setMeta('table', table);
        message.setMeta('binlog_position', position);
        if (update) message.setMeta('before', normalise(update.before));
        this.push(message, undefined);
      }
    } else if (
      name === 'xid' ||
      (name === 'query' && !/^\s*BEGIN\s*$/i.test(String((event as { query?: string }).query)))
    ) {
      // A transaction boundary: zongji's resume pair now points just after it.
      if (options.filename && options.position)
        this.passPosition({ file: options.filename, pos: options.position });
    }
  }

  private push(message: Message, position: BinlogPosition | undefined): void {
    const tracked = this.checkpoint.track(position);
    this.changes.push({ message, done: tracked.resolve });
    this.throttle();
  }

  private passPosition(position: BinlogPosition): void {
    const moved = this.checkpoint.track(position).resolve();
    if (moved) void this.store(moved);
  }

  /** checkpoint_limit: the binlog connection stops reading while that many changes are unacknowledged. */
  private throttle(): void {
    const connection = (this.zongji as unknown as { connection?: { pause(): void; resume(): void } } | null)
      ?.connection;
    if (!connection) return;
    const full = this.config.checkpoint_limit > 0 && this.checkpoint.pending >= this.config.checkpoint_limit;
    if (full && !this.paused) connection.pause();
    else if (!full && this.paused) connection.resume();
    this.paused = full;
  }

  private store(position: BinlogPosition): Promise<void> {
    const { checkpoint_cache: cache, checkpoint_key: key } = this.config;
    const value = Buffer.from(formatPosition(position), 'utf8');
    this.storing = this.storing.then(() =>
      this.resources
        .useCache(cache, (c) => c.set(key, value))
        .catch((err) =>
          this.logger.error(
            `mysql_cdc: storing the checkpoint in cache '${cache}' failed: ${errorMessage(err)}`,
          ),
        ),
    );
    return this.storing;
  }

  private fail(err: Error): void {
    if (!this.state.closed) this.changes.fail(err);
  }

  async read(): Promise<Transaction | null> {
    const next = await this.changes.next(() => this.state.closed);
    return next ? this.transaction(next) : null;
  }

  private transaction(item: Pending): Transaction {
    return {
      batch: [item.message],
      ack: async (err) => {
        if (err) {
          if (!this.state.closed) {
            this.changes.requeue({ ...item, message: item.message.copy() });
          }
          return;
        }
        const moved = item.done();
        this.throttle();
        if (moved) await this.store(moved);
      },
    };
  }

  private async teardown(): Promise<void> {
    const zongji = this.zongji;
    this.zongji = null;
    this.paused = false;
    if (zongji) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 2000);
        zongji.once('stopped', () => {
          clearTimeout(timer);
          resolve();
        });
        zongji.stop();
      });
    }
    const conn = this.conn;
    this.conn = null;
    await conn?.end().catch(() => undefined);
    await this.storing;
  }

  async close(): Promise<void> {
    this.state.closed = true;
    this.checkpoint.release();
    this.changes.wakeUp();
    await this.teardown();
  }
}
