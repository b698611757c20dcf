// One logged-in SFTP connection: the file operations the sftp input and output use, as promises,
// and whether the connection was lost (so a failed operation can be told apart from an outage).
import type { Readable } from 'node:stream';
import type { SFTPWrapper, Stats } from 'ssh2';
import type SftpClient from 'ssh2-sftp-client';

/** SFTP status code NO_SUCH_FILE, and the code ssh2-sftp-client gives it. */
export function isMissing(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 2 || code === 'ENOENT';
}

export class SftpConnection {
  lost: Error | null = null;
  private ended = false;

  constructor(
    private readonly client: SftpClient,
    private readonly sftp: SFTPWrapper,
  ) {}

  /** Records the first loss and tells the owner, unless the connection was ended on purpose. */
  markLost(err: Error, onLost: (err: Error) => void): void {
    if (this.lost || this.ended) return;
    this.lost = err;
    onLost(err);
  }

  /**
   * Whether `err` (of an operation on this connection) means the connection is gone: the client's
   * own events usually say so first, but a read may fail before they arrive.
   */
  isLostBy(err: unknown): boolean {
    if (this.lost) return true;
    const code = (err as { code?: unknown } | null)?.code;
    const text = err instanceof Error ? err.message : String(err);
    if (
      code === 'ERR_NOT_CONNECTED' ||
      code === 'ECONNRESET' ||
      /No response from server|No SFTP connection|Not connected/i.test(text)
    ) {
      this.lost = err instanceof Error ? err : new Error(text);
      return true;
    }
    return false;
  }

  stat(path: string): Promise<Stats> {
    return this.call<Stats>((cb) => this.sftp.stat(path, cb));
  }

  /** The names in a directory, sorted (as the reference's glob reads them). */
  async readdir(path: string): Promise<string[]> {
    const entries = await this.call<{ filename: string }[]>((cb) => this.sftp.readdir(path, cb));
    return entries.map((e) => e.filename).sort();
  }

  createReadStream(path: string): Readable {
    return this.sftp.createReadStream(path, { highWaterMark: 256 * 1024 }) as unknown as Readable;
  }

  unlink(path: string): Promise<void> {
    return this.call<void>((cb) => this.sftp.unlink(path, cb));
  }

  /** Creates the directory and its missing parents; one made meanwhile by another client is fine. */
  async mkdirAll(path: string): Promise<void> {
    if (await this.isDirectory(path)) return;
    const slash = path.lastIndexOf('/');
    if (slash > 0) await this.mkdirAll(path.slice(0, slash));
    try {
      await this.call<void>((cb) => this.sftp.mkdir(path, cb));
    } catch (err) {
      if (!(await this.isDirectory(path).catch(() => false))) throw err;
    }
  }

  private async isDirectory(path: string): Promise<boolean> {
    try {
      const stats = await this.stat(path);
      if (stats.isDirectory()) return true;
      throw new Error(`${path} exists and is not a directory`);
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }

  /** Opens for writing: `a` keeps the content (the caller writes at the end), `w` truncates. */
  open(path: string, flags: 'a' | 'w'): Promise<Buffer> {
    return this.call<Buffer>((cb) => this.sftp.open(path, flags, cb));
  }

  async size(handle: Buffer): Promise<number> {
    const stats = await this.call<Stats>((cb) => this.sftp.fstat(handle, cb));
    return stats.size;
  }

  /** Writes all of `data` at `position` (the server acknowledges each piece). */
  write(handle: Buffer, data: Buffer, position: number): Promise<void> {
    return this.call<void>((cb) => this.sftp.write(handle, data, 0, data.length, position, cb));
  }

  closeHandle(handle: Buffer): Promise<void> {
    return this.call<void>((cb) => this.sftp.close(handle, cb));
  }

  async end(): Promise<void> {
    this.ended = true;
    await this.client.end().catch(() => undefined);
  }

  private call<T>(start: (cb: (err: Error | null | undefined, value?: T) => void) => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.lost) {
        reject(this.lost);
        return;
      }
      try {
        start((err, value) => (err ? reject(err) : resolve(value as T)));
      } catch (err) {
        reject(err);
      }
    });
  }
}
