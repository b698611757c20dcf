// The sftp output's writer: each message to the file its interpolated path names. `all-bytes`
// replaces the file with each message; the other codecs append, through a few handles kept open
// (writing at the end the writer tracks, since not every server honours the append flag).
import type { Interpolation } from '../../bloblang/index.js';
import type { OutputWriter } from '../../engine/component.js';
import { NotConnectedError } from '../../engine/errors.js';
import type { Batch, Message } from '../../message/message.js';
import { encodeMessages, type OutputCodec } from '../outputs/codec.js';
import type { SftpSession } from './session.js';
import type { SftpConnection } from './sftp_connection.js';

/** Append handles kept open at once; paths that vary per message would otherwise pile them up. */
const MAX_OPEN_FILES = 8;

interface AppendHandle {
  handle: Buffer;
  position: number;
}

function parent(path: string): string | undefined {
  const slash = path.lastIndexOf('/');
  return slash > 0 ? path.slice(0, slash) : undefined;
}

export class SftpWriter implements OutputWriter {
  private conn: SftpConnection | null = null;
  /** Least recently used first. */
  private readonly handles = new Map<string, AppendHandle>();
  private readonly pending: { batch: Batch; resolve: () => void; reject: (err: unknown) => void }[] = [];
  private draining: Promise<void> | null = null;
  private lostListener: ((err: Error) => void) | undefined;
  /** Directories known to exist: a file opened in one costs no round trip to check it. */
  private readonly dirs = new Set<string>();

  constructor(
    private readonly session: SftpSession,
    private readonly path: Interpolation,
    private readonly codec: OutputCodec,
  ) {}

  onConnectionLost(listener: (err: Error) => void): void {
    this.lostListener = listener;
  }

  async connect(): Promise<void> {
    if (this.conn && !this.conn.lost) return;
    await this.conn?.end();
    this.conn = null;
    this.handles.clear();
    this.dirs.clear();
    this.conn = await this.session.connect((err) => this.lostListener?.(new NotConnectedError(err.message)));
  }

  write(batch: Batch): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ batch, resolve, reject });
      if (!this.draining) this.draining = this.drain();
    });
  }

  async close(): Promise<void> {
    await this.draining;
    const conn = this.conn;
    this.conn = null;
    if (!conn) return;
    if (!conn.lost)
      for (const { handle } of this.handles.values()) await conn.closeHandle(handle).catch(() => undefined);
    this.handles.clear();
    await conn.end();
  }

  /**
   * Writes run one at a time (as the reference's do), so appends to a file stay in order; batches
   * that arrived while one was written go together, one SFTP write per file for all of them.
   */
  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      // A batch whose path cannot be rendered fails alone, before anything is written.
      const writes: { batch: Batch; paths: string[]; resolve: () => void; reject: (err: unknown) => void }[] =
        [];
      for (const w of this.pending.splice(0)) {
        try {
          writes.push({ ...w, paths: w.batch.map((_, i) => this.renderPath(w.batch, i)) });
        } catch (err) {
          w.reject(err);
        }
      }
      if (writes.length === 0) continue;
      try {
        await this.writeNow(writes);
        for (const w of writes) w.resolve();
      } catch (err) {
        for (const w of writes) w.reject(err);
      }
    }
    this.draining = null;
  }

  private async writeNow(batches: { batch: Batch; paths: string[] }[]): Promise<void> {
    const conn = this.conn;
    if (!conn || conn.lost) throw new NotConnectedError(conn?.lost?.message ?? 'not connected');
    const messages = batches.flatMap((b) => b.batch);
    const paths = batches.flatMap((b) => b.paths);
    try {
      if (this.codec.replaceWhole) {
        for (let i = 0; i < messages.length; i++)
          await this.replace(conn, paths[i] as string, messages[i] as Message);
        return;
      }
      for (const [path, group] of groupByPath(messages, paths)) {
        const file = await this.appendHandle(conn, path);
        const data = encodeMessages(group, this.codec);
        await conn.write(file.handle, data, file.position);
        file.position += data.length;
      }
    } catch (err) {
      if (conn.isLostBy(err)) {
        this.handles.clear();
        const lost = conn.lost as Error | null;
        throw new NotConnectedError(`sftp writing: ${lost?.message ?? this.session.describe(err)}`);
      }
      // A handle that failed may be in any state, a directory may have gone: start afresh on the retry.
      this.dirs.clear();
      await this.dropHandles(conn);
      throw new Error(`sftp writing: ${this.session.describe(err)}`);
    }
  }

  private renderPath(batch: Batch, index: number): string {
    const path = this.path.render(batch, index);
    if (path === '') throw new Error(`sftp: message ${index}: path is empty`);
    if (path.includes('\u0000')) throw new Error(`sftp: message ${index}: path holds a NUL character`);
    return path;
  }

  private async replace(conn: SftpConnection, path: string, msg: Message): Promise<void> {
    // A file written by append before is replaced: its open handle would write at a stale end.
    const appending = this.handles.get(path);
    if (appending) {
      this.handles.delete(path);
      await conn.closeHandle(appending.handle);
    }
    await this.makeParent(conn, path);
    const handle = await conn.open(path, 'w');
    try {
      const bytes = msg.bytes();
      await conn.write(handle, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), 0);
    } finally {
      await conn.closeHandle(handle).catch(() => undefined);
    }
  }

  private async appendHandle(conn: SftpConnection, path: string): Promise<AppendHandle> {
    const existing = this.handles.get(path);
    if (existing) {
      this.handles.delete(path);
      this.handles.set(path, existing);
      return existing;
    }
    await this.makeParent(conn, path);
    const handle = await conn.open(path, 'a');
    const file = { handle, position: await conn.size(handle) };
    this.handles.set(path, file);
    if (this.handles.size > MAX_OPEN_FILES) {
      const [oldestPath, oldest] = this.handles.entries().next().value as [string, AppendHandle];
      this.handles.delete(oldestPath);
      await conn.closeHandle(oldest.handle);
    }
    return file;
  }

  private async makeParent(conn: SftpConnection, path: string): Promise<void> {
    const dir = parent(path);
    if (dir === undefined || this.dirs.has(dir)) return;
    await conn.mkdirAll(dir);
    if (this.dirs.size >= 1024) this.dirs.clear(); // paths that vary per message: bounded
    this.dirs.add(dir);
  }

  private async dropHandles(conn: SftpConnection): Promise<void> {
    const handles = [...this.handles.values()];
    this.handles.clear();
    for (const { handle } of handles) await conn.closeHandle(handle).catch(() => undefined);
  }
}

function groupByPath(messages: Message[], paths: string[]): Map<string, Message[]> {
  const groups = new Map<string, Message[]>();
  for (let i = 0; i < messages.length; i++) {
    const path = paths[i] as string;
    const group = groups.get(path);
    if (group) group.push(messages[i] as Message);
    else groups.set(path, [messages[i] as Message]);
  }
  return groups;
}
