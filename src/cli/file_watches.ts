// The watches behind `-w` in normal mode: one fs.watch per directory of the config file and of
// each `-r` pattern, not of the files themselves (an editor that saves by rename replaces the
// file, and a watch on the old one goes silent). Events for other files in those directories
// (a log the stream writes beside its config) are ignored; for a glob, any file counts.
import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Logger } from 'pino';
import { isDynamicPattern } from 'tinyglobby';
import { errorMessage } from '../engine/errors.js';
import { staticBase } from '../streams/directory_watch.js';

export class FileWatches {
  private readonly watchers: FSWatcher[] = [];

  constructor(
    private readonly onChange: () => void,
    private readonly logger: Logger,
  ) {}

  /** Starts watching; `paths` are files or glob patterns. */
  watch(paths: readonly string[]): void {
    const wanted = new Map<string, Set<string> | 'any'>();
    for (const path of paths) {
      const dir = isDynamicPattern(path) ? staticBase(path) : dirname(path);
      const names = wanted.get(dir);
      if (isDynamicPattern(path) || names === 'any') wanted.set(dir, 'any');
      else wanted.set(dir, (names ?? new Set()).add(basename(path)));
    }
    for (const [dir, names] of wanted) this.add(dir, names);
  }

  close(): void {
    for (const watcher of this.watchers) watcher.close();
    this.watchers.length = 0;
  }

  private add(dir: string, names: Set<string> | 'any'): void {
    try {
      const watcher = watch(dir, (_event, name) => {
        if (names === 'any' || name === null || names.has(String(name))) this.onChange();
      });
      watcher.on('error', (err) => this.logger.warn(`watching ${dir}: ${errorMessage(err)}`));
      this.watchers.push(watcher);
    } catch (err) {
      this.logger.warn(`cannot watch ${dir}: ${errorMessage(err)}`);
    }
  }
}
