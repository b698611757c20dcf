// Watch mode (`-w`, spec §7.4): any change under the watched paths triggers, after a quiet period,
// a rescan of the stream files. New ids are created, changed files update their stream, vanished
// files delete theirs. In strict mode a changed file with lints is not applied.

import { readFile } from 'node:fs/promises';
import type { Logger } from 'pino';
import { nodeCrypto } from '../base/lazy_builtins.js';
import { errorMessage } from '../engine/errors.js';
import { DirectoryWatches } from './directory_watch.js';
import { resolveStreamFiles } from './files.js';
import type { StreamManager } from './manager.js';
import { loadStreamDefinition, type StreamFileOptions } from './stream_files.js';

/** Deadline for stopping a stream that a file change replaces or removes. */
const WATCH_STOP_TIMEOUT_MS = 30_000;

export interface WatcherOptions extends StreamFileOptions {
  args: readonly string[];
  manager: StreamManager;
  logger: Logger;
  chilled: boolean;
  /** Quiet period after the last change before applying (default 1 s). */
  debounceMs?: number;
}

export class StreamFileWatcher {
  /** id → hash of the file content last applied. */
  private readonly applied = new Map<string, string>();
  private readonly watches: DirectoryWatches;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(private readonly options: WatcherOptions) {
    this.watches = new DirectoryWatches(() => this.schedule(), options.logger);
  }

  /** Remembers what was loaded at startup, so unchanged files are not restarted. */
  async start(initial: ReadonlyArray<{ id: string; path: string }>): Promise<void> {
    for (const file of initial) this.applied.set(file.id, await hashFile(file.path));
    await this.watches.sync(this.options.args);
  }

  close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.watches.close();
    return this.running;
  }

  private schedule(): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.running.then(() => this.rescan());
    }, this.options.debounceMs ?? 1000);
  }

  private async rescan(): Promise<void> {
    if (this.closed) return;
    const { manager, logger } = this.options;
    let files: Awaited<ReturnType<typeof resolveStreamFiles>>;
    try {
      files = await resolveStreamFiles(this.options.args);
    } catch (err) {
      logger.error(`watching stream files: ${errorMessage(err)}`);
      return;
    }
    // New subdirectories get a watch, removed ones lose theirs.
    await this.watches.sync(this.options.args);
    const present = new Set<string>();
    for (const file of files) {
      let hash: string;
      try {
        hash = await hashFile(file.path);
      } catch (err) {
        // Gone (an explicitly named file is listed even once removed): its stream is deleted below.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') present.add(file.id);
        continue;
      }
      present.add(file.id);
      if (this.applied.get(file.id) === hash) continue;
      await this.apply(file, hash);
    }
    for (const id of [...this.applied.keys()]) {
      if (present.has(id)) continue;
      this.applied.delete(id);
      await manager.delete(id, WATCH_STOP_TIMEOUT_MS).then(
        () => logger.info(`stream ${id}: file removed, stream deleted`),
        (err) => logger.debug(`stream ${id}: ${errorMessage(err)}`),
      );
    }
  }

  private async apply(file: { id: string; path: string }, hash: string): Promise<void> {
    const { manager, logger } = this.options;
    try {
      const loaded = await loadStreamDefinition(file, this.options);
      for (const lint of loaded.lints) logger.warn(`stream ${file.id}: ${lint}`);
      if (loaded.lints.length > 0 && !this.options.chilled) {
        logger.error(`stream ${file.id}: not applying ${file.path}: it has lint errors`);
        return;
      }
      if (manager.has(file.id)) await manager.update(file.id, loaded.definition, WATCH_STOP_TIMEOUT_MS);
      else await manager.create(file.id, loaded.definition);
      this.applied.set(file.id, hash);
      logger.info(`stream ${file.id}: applied ${file.path}`);
    } catch (err) {
      logger.error(`stream ${file.id}: applying ${file.path} failed: ${errorMessage(err)}`);
    }
  }
}

async function hashFile(path: string): Promise<string> {
  return nodeCrypto()
    .createHash('sha256')
    .update(await readFile(path))
    .digest('hex');
}
