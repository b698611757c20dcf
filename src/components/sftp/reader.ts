// The sftp input's reader: one file at a time from the path provider, split into messages by the
// scanner. A file is deleted (delete_on_finish) and marked done (watcher) only once every message
// of it was delivered. A file whose read broke off with the connection is read again from the
// start after reconnecting (at least once: its first messages may arrive twice).
import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import type { GroupAckFn, InputReader, Transaction } from '../../engine/component.js';
import { errorMessage, NotConnectedError } from '../../engine/errors.js';
import type { Batch } from '../../message/message.js';
import { Timestamp } from '../../message/value.js';
import { ScannedSource } from '../inputs/scanned_source.js';
import type { Scanner } from '../scanners/scanner.js';
import type { PathProvider } from './path_providers.js';
import type { SftpSession } from './session.js';
import { isMissing, type SftpConnection } from './sftp_connection.js';

interface OpenFile {
  path: string;
  stream: Readable;
  source: ScannedSource;
  /** The read broke off: the file is read again, so this reading must not finish it. */
  broken: boolean;
}

export class SftpReader implements InputReader {
  private conn: SftpConnection | null = null;
  private current: OpenFile | null = null;
  private readonly stop = new AbortController();

  constructor(
    private readonly session: SftpSession,
    private readonly paths: PathProvider,
    private readonly scannerFor: (path: string) => Promise<Scanner>,
    private readonly deleteOnFinish: boolean,
    private readonly logger: Logger,
  ) {}

  async connect(): Promise<void> {
    if (this.conn && !this.conn.lost) return;
    await this.conn?.end();
    this.conn = null;
    this.conn = await this.session.connect(() => undefined);
  }

  async read(): Promise<Transaction | null> {
    while (!this.stop.signal.aborted) {
      const conn = this.conn;
      if (!conn || conn.lost) throw new NotConnectedError(conn?.lost?.message ?? 'not connected');
      if (!this.current) {
        let path: string | undefined;
        try {
          path = await this.paths.next(conn, this.stop.signal);
        } catch (err) {
          throw this.failure(conn, err, 'listing files');
        }
        if (path === undefined) return null;
        const opened = await this.open(conn, path);
        if (!opened) continue;
        this.current = opened;
      }
      const file = this.current;
      try {
        const txn = await file.source.next();
        if (txn) return txn;
        this.current = null;
      } catch (err) {
        this.current = null;
        file.broken = true;
        await file.source.close().catch(() => undefined);
        if (conn.isLostBy(err)) this.paths.retry(file.path);
        else await this.paths.ack(file.path, err as Error).catch(() => undefined);
        throw this.failure(conn, err, `reading ${file.path}`);
      }
    }
    return null;
  }

  readBuffered(): Transaction | undefined {
    return this.stop.signal.aborted ? undefined : this.current?.source.nextBuffered();
  }

  readBufferedGroup(max: number): { batches: Batch[]; ack: GroupAckFn } | undefined {
    return this.stop.signal.aborted ? undefined : this.current?.source.bufferedGroup(max);
  }

  async close(): Promise<void> {
    this.stop.abort();
    const current = this.current;
    this.current = null;
    if (current) {
      // Destroyed first: the scanner may be waiting on the stream, and would hold the close until data came.
      current.broken = true;
      current.stream.destroy();
      await current.source.close().catch(() => undefined);
    }
    await this.conn?.end();
  }

  /** Opens a file for scanning; undefined when it vanished or is a directory (skipped, as the reference does). */
  private async open(conn: SftpConnection, path: string): Promise<OpenFile | undefined> {
    let mtime: number;
    try {
      const stats = await conn.stat(path);
      if (stats.isDirectory()) {
        this.logger.warn(`sftp: skipping ${path}: a directory`);
        await this.paths.ack(path, null);
        return undefined;
      }
      mtime = stats.mtime;
    } catch (err) {
      if (!conn.isLostBy(err) && isMissing(err)) {
        this.logger.warn(`sftp: skipping ${path}: it no longer exists`);
        await this.paths.ack(path, null);
        return undefined;
      }
      if (conn.lost) this.paths.retry(path);
      else await this.paths.ack(path, err as Error).catch(() => undefined);
      throw this.failure(conn, err, `opening ${path}`);
    }
    const scanner = await this.scannerFor(path);
    const meta = new Map<string, unknown>([
      ['sftp_path', path],
      ['sftp_mod_time', new Timestamp(BigInt(mtime) * 1_000_000_000n)],
    ]);
    const stream = conn.createReadStream(path);
    // Errors reach the scanner through its iterator; one after the file was given up (the
    // connection ended under a stopped read) must not become an uncaught exception.
    stream.on('error', () => undefined);
    const file: OpenFile = { path, stream, broken: false, source: null as unknown as ScannedSource };
    file.source = new ScannedSource(scanner(stream, { name: path }), {
      decorate(msg) {
        if (msg.metadata().size === 0) {
          msg.shareMetadata(meta);
          return;
        }
        for (const [k, v] of meta) msg.setMeta(k, v);
      },
      finished: (err) => this.finish(file, err),
    });
    return file;
  }

  private async finish(file: OpenFile, err: Error | null): Promise<void> {
    if (file.broken) return;
    if (err === null && this.deleteOnFinish) {
      // On the connection of now: the one that read the file may have been replaced.
      const conn = this.conn;
      try {
        if (!conn || conn.lost) throw new Error('not connected');
        await conn.unlink(file.path);
      } catch (e) {
        if (!isMissing(e))
          this.logger.error(`sftp: failed to delete ${file.path}: ${this.session.scrub(errorMessage(e))}`);
      }
    }
    try {
      await this.paths.ack(file.path, err);
    } catch (e) {
      this.logger.warn(`sftp: failed to mark ${file.path} in the watcher cache: ${errorMessage(e)}`);
    }
  }

  /** A lost connection makes the engine reconnect; any other failure is reported as it is. */
  private failure(conn: SftpConnection, err: unknown, what: string): Error {
    if (conn.isLostBy(err) && conn.lost) return new NotConnectedError(`sftp ${what}: ${conn.lost.message}`);
    return new Error(`sftp ${what}: ${this.session.describe(err)}`);
  }
}
