// Normal mode's `-w/--watcher`: when the config file or a `-r` resource file changes, the config is
// loaded and linted again. A bad file is logged and the running stream kept; a good one replaces
// it: the old stream drains (within its shutdown_timeout) and its resources close, then the new
// resources and stream are built and run. As in the reference, a stream whose input ends does not
// end the process while watching: only a signal does. The HTTP server, logger and metrics stay.
import { readFile } from 'node:fs/promises';
import type { Logger } from 'pino';
import { errorMessage } from '../engine/errors.js';
import { FileWatches } from './file_watches.js';
import type { LoadedService } from './load_service.js';

/** One built config: its stream, run by the watcher, and what to release when it is replaced. */
export interface RunningConfig {
  readonly loaded: LoadedService;
  run(): Promise<void>;
  /** Drains the stream within the timeout, then closes its resources and endpoints. */
  stop(timeoutMs: number): Promise<void>;
}

export interface ConfigReload {
  /** The config file and the `-r` patterns: their directories are watched. */
  paths: string[];
  /** Loads and lints again; undefined when it cannot run (the reasons are already printed). */
  load(): Promise<LoadedService | undefined>;
}

/** Edits come as several events (truncate, write, rename): act once they settle. */
const SETTLE_MS = 200;

export class ConfigWatcher<R extends RunningConfig> {
  private stopping = false;
  private queue: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private seen: string;
  private readonly watches: FileWatches;
  private readonly stopped: Promise<void>;
  private markStopped!: () => void;

  private constructor(
    private current: R | undefined,
    private readonly reload: ConfigReload,
    private readonly build: (loaded: LoadedService) => Promise<R>,
    private readonly logger: Logger,
    seen: string,
  ) {
    this.seen = seen;
    this.stopped = new Promise((resolve) => {
      this.markStopped = resolve;
    });
    this.watches = new FileWatches(() => this.changed(), logger);
  }

  static async start<R extends RunningConfig>(
    first: R,
    reload: ConfigReload,
    build: (loaded: LoadedService) => Promise<R>,
    logger: Logger,
  ): Promise<ConfigWatcher<R>> {
    const watcher = new ConfigWatcher(first, reload, build, logger, await snapshot(first.loaded));
    watcher.watches.watch(reload.paths);
    watcher.runCurrent();
    logger.info(`watching ${reload.paths.join(', ')} for changes`);
    return watcher;
  }

  /** The stream running now (none when a new config and the old one both failed to build). */
  get running(): R | undefined {
    return this.current;
  }

  /** Settles once stop() has stopped the running stream. */
  untilStopped(): Promise<void> {
    return this.stopped;
  }

  async stop(timeoutMs: number): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    this.watches.close();
    await this.queue;
    await this.current?.stop(timeoutMs);
    this.markStopped();
  }

  private changed(): void {
    // The first event schedules one look; later ones before it add nothing (the texts are compared).
    if (this.stopping || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.queue = this.queue.then(() => this.reloadIfChanged());
    }, SETTLE_MS);
  }

  private async reloadIfChanged(): Promise<void> {
    if (this.stopping || !this.current) return;
    const now = await snapshot(this.current.loaded);
    if (now === this.seen) return;
    this.seen = now;
    let next: LoadedService | undefined;
    try {
      next = await this.reload.load();
    } catch (err) {
      this.logger.error(`config reload failed: ${errorMessage(err)}: keeping the running stream`);
      return;
    }
    if (!next) {
      this.logger.error('config reload failed (see above): keeping the running stream');
      return;
    }
    if (this.stopping) return;
    this.logger.info('config changed: replacing the stream');
    const previous = this.current;
    await previous.stop(previous.loaded.shutdownTimeoutMs);
    this.current = await this.buildOrKeep(next, previous.loaded);
    this.runCurrent();
  }

  /** A config that lints but fails to build (a bad value, a port in use) brings the old one back. */
  private async buildOrKeep(next: LoadedService, previous: LoadedService): Promise<R | undefined> {
    try {
      return await this.build(next);
    } catch (err) {
      this.logger.error(`the changed config cannot run: ${errorMessage(err)}: restarting the previous one`);
    }
    try {
      return await this.build(previous);
    } catch (err) {
      this.logger.error(`the previous config cannot run again: ${errorMessage(err)}: waiting for a change`);
      return undefined;
    }
  }

  private runCurrent(): void {
    const running = this.current;
    running?.run().catch((err) => this.logger.error(`stream failed: ${errorMessage(err)}`));
  }
}

/** The texts of the config and its resource files, to tell a real change from a touch. */
async function snapshot(loaded: LoadedService): Promise<string> {
  const files = [loaded.source.file, ...loaded.resourceFiles.map((f) => f.source.file)];
  const texts = await Promise.all(files.map((f) => readFile(f, 'utf8').catch(() => '')));
  return JSON.stringify([files, texts]);
}
