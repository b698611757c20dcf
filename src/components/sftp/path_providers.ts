// Which files the sftp input reads next. Static: the patterns expanded once, at the first connect.
// Watcher: the patterns polled every poll_interval; a file is queued once it is older than
// minimum_age and not yet in the cache resource, marked `!` (pending) when queued and `@` (done)
// once every message of it was delivered, removed again on a failure so a later poll retries it.
// A `!` left by an earlier run that stopped is taken up again on the first poll, as the reference does.
import type { Logger } from 'pino';
import type { Resources } from '../../engine/context.js';
import { errorMessage } from '../../engine/errors.js';
import { remoteGlob } from './remote_glob.js';
import type { SftpConnection } from './sftp_connection.js';

export interface PathProvider {
  /** The next path, or undefined when there will be none (static) or the signal aborted. */
  next(conn: SftpConnection, signal: AbortSignal): Promise<string | undefined>;
  /** Gives a path back to be read again first (its read broke off with the connection). */
  retry(path: string): void;
  /** The file's messages were all delivered (err null) or one failed for good. */
  ack(path: string, err: Error | null): Promise<void>;
}

export class StaticPaths implements PathProvider {
  private pending: string[] | null = null;

  constructor(
    private readonly patterns: readonly string[],
    private readonly logger: Logger,
  ) {}

  async next(conn: SftpConnection): Promise<string | undefined> {
    if (this.pending === null) {
      const pending: string[] = [];
      for (const pattern of this.patterns) {
        const found = await remoteGlob(conn, pattern);
        if (found.length === 0) this.logger.warn(`sftp: no file on the server matches ${pattern}`);
        pending.push(...found);
      }
      this.pending = pending;
    }
    return this.pending.shift();
  }

  retry(path: string): void {
    this.pending?.unshift(path);
  }

  async ack(): Promise<void> {}
}

export interface WatcherOptions {
  cache: string;
  pollIntervalMs: number;
  minimumAgeMs: number;
}

const PENDING = Buffer.from('!');
const DONE = Buffer.from('@');

export class WatchedPaths implements PathProvider {
  private readonly queue: string[] = [];
  private nextPoll = 0;
  private polledOnce = false;

  constructor(
    private readonly patterns: readonly string[],
    private readonly options: WatcherOptions,
    private readonly resources: Resources,
    private readonly logger: Logger,
  ) {}

  async next(conn: SftpConnection, signal: AbortSignal): Promise<string | undefined> {
    while (!signal.aborted) {
      const path = this.queue.shift();
      if (path !== undefined) return path;
      await sleep(this.nextPoll - Date.now(), signal);
      if (signal.aborted) break;
      this.nextPoll = Date.now() + this.options.pollIntervalMs;
      await this.poll(conn);
    }
    return undefined;
  }

  retry(path: string): void {
    this.queue.unshift(path);
  }

  async ack(path: string, err: Error | null): Promise<void> {
    await this.resources.useCache(this.options.cache, (cache) =>
      err === null ? cache.set(path, DONE) : cache.delete(path),
    );
  }

  private async poll(conn: SftpConnection): Promise<void> {
    const firstPoll = !this.polledOnce;
    const now = Date.now();
    for (const pattern of this.patterns) {
      for (const path of await remoteGlob(conn, pattern)) {
        const stats = await conn.stat(path);
        if (!stats.isFile() || now - stats.mtime * 1000 < this.options.minimumAgeMs) continue;
        try {
          await this.resources.useCache(this.options.cache, async (cache) => {
            const mark = await cache.get(path);
            if (mark !== undefined && !(firstPoll && Buffer.from(mark).equals(PENDING))) return;
            await cache.set(path, PENDING);
            this.queue.push(path);
          });
        } catch (err) {
          // The next poll asks again.
          this.logger.warn(`sftp: cache '${this.options.cache}' failed for ${path}: ${errorMessage(err)}`);
        }
      }
    }
    this.polledOnce = true;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
