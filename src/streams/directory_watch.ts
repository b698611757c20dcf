// One non-recursive fs.watch per directory. Node 20's `recursive: true` on Linux watches each file
// by inode, so after an editor saves by rename (vim, `sed -i`) or a file is removed, it goes
// silent until something else changes; a directory watch sees every create, write, rename and
// delete in it. Subdirectories are followed by calling sync() again after each rescan.
import { type FSWatcher, watch } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Logger } from 'pino';
import { isDynamicPattern } from 'tinyglobby';
import { errorMessage } from '../engine/errors.js';

export class DirectoryWatches {
  private readonly watchers = new Map<string, FSWatcher>();
  private closed = false;

  constructor(
    private readonly onChange: () => void,
    private readonly logger: Logger,
  ) {}

  /** Watches the directories the arguments cover now (a directory's whole tree), and no others. */
  async sync(args: readonly string[]): Promise<void> {
    const wanted = await directoriesOf(args);
    if (this.closed) return;
    for (const [dir, watcher] of this.watchers) {
      if (wanted.has(dir)) continue;
      watcher.close();
      this.watchers.delete(dir);
    }
    for (const dir of wanted) if (!this.watchers.has(dir)) this.add(dir);
  }

  close(): void {
    this.closed = true;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  private add(dir: string): void {
    try {
      const watcher = watch(dir, () => this.onChange());
      watcher.on('error', (err) => {
        // The directory went away: forget it (a later sync watches it again if it comes back).
        this.logger.debug(`watching ${dir}: ${errorMessage(err)}`);
        watcher.close();
        if (this.watchers.get(dir) === watcher) this.watchers.delete(dir);
        this.onChange();
      });
      this.watchers.set(dir, watcher);
    } catch (err) {
      this.logger.warn(`cannot watch ${dir}: ${errorMessage(err)}`);
    }
  }
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/** A given directory and every directory under it; a file's or a glob's directory (and, for a glob, its tree). */
async function directoriesOf(args: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const arg of args) {
    const tree = isDynamicPattern(arg) ? staticBase(arg) : (await isDirectory(arg)) ? arg : undefined;
    if (tree === undefined) {
      out.add(dirname(arg));
      continue;
    }
    if (!(await isDirectory(tree))) continue;
    out.add(tree);
    const entries = await readdir(tree, { recursive: true, withFileTypes: true }).catch(() => []);
    for (const entry of entries) if (entry.isDirectory()) out.add(join(entry.parentPath, entry.name));
  }
  return out;
}

/** The directory part of a glob before its first wildcard segment. */
export function staticBase(pattern: string): string {
  const fixed: string[] = [];
  for (const segment of pattern.split('/')) {
    if (isDynamicPattern(segment)) break;
    fixed.push(segment);
  }
  const base = fixed.join('/');
  return base === '' ? (pattern.startsWith('/') ? '/' : '.') : base;
}
