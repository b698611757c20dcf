// `file` cache: one file per key inside a directory; keys can never address a path outside it.

import { mkdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { nodeCrypto } from '../../base/lazy_builtins.js';
import { defineComponent, field } from '../../config/spec.js';
import type { Cache } from '../../engine/component.js';

function hasCode(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code;
}

export class FileCache implements Cache {
  private readonly root: string;

  constructor(directory: string) {
    this.root = path.resolve(directory);
  }

  /** Creates the directory when missing. */
  async open(): Promise<this> {
    await mkdir(this.root, { recursive: true });
    return this;
  }

  /**
   * The file of a key: the key is a path relative to the directory (as in the reference), and one
   * that resolves outside it (`../x`, `/etc/x`) or to the directory itself is refused.
   */
  pathOf(key: string): string {
    if (key === '' || key.includes('\0')) throw new Error(`invalid cache key ${JSON.stringify(key)}`);
    const file = path.resolve(this.root, key);
    const relative = path.relative(this.root, file);
    if (
      relative === '' ||
      relative === '..' ||
      relative.startsWith(`..${path.sep}`) ||
      path.isAbsolute(relative)
    ) {
      throw new Error(`cache key ${JSON.stringify(key)} would leave the cache directory`);
    }
    return file;
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    try {
      return await readFile(this.pathOf(key));
    } catch (err) {
      if (hasCode(err, 'ENOENT')) return undefined;
      throw err;
    }
  }

  async set(key: string, value: Uint8Array): Promise<void> {
    const file = this.pathOf(key);
    await this.ensureParent(file);
    // Write then rename, so a reader never sees a half-written value.
    const temp = `${file}.${nodeCrypto().randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temp, value);
      await rename(temp, file);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }

  async add(key: string, value: Uint8Array): Promise<boolean> {
    const file = this.pathOf(key);
    await this.ensureParent(file);
    try {
      await writeFile(file, value, { flag: 'wx' });
      return true;
    } catch (err) {
      if (hasCode(err, 'EEXIST')) return false;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await unlink(this.pathOf(key));
    } catch (err) {
      if (!hasCode(err, 'ENOENT')) throw err;
    }
  }

  async close(): Promise<void> {}

  private async ensureParent(file: string): Promise<void> {
    const parent = path.dirname(file);
    if (parent !== this.root) await mkdir(parent, { recursive: true });
  }
}

export const spec = defineComponent({
  name: 'file',
  kind: 'cache',
  status: 'stable',
  summary:
    'Stores each item as a file in a directory, the key being the file path relative to that directory.',
  description:
    'Items never expire and nothing is cleaned up: this cache is meant for development and debugging. A key may name a subdirectory (`a/b`), which is created on write; a key that would resolve outside the directory fails the operation. The directory is created when missing.',
  fields: [field.string('directory', 'The directory that holds the items.')] as const,
  examples: [
    {
      title: 'Keep the last message of each id on disk',
      config: `input:
  generate:
    count: 3
    interval: ''
    mapping: 'root.id = counter()'
pipeline:
  processors:
    - cache:
        resource: disk
        operator: set
        key: '\${! json("id") }'
        value: '\${! content() }'
output:
  drop: {}
cache_resources:
  - label: disk
    file:
      directory: /tmp/nekton-cache
`,
    },
  ],
  build: (config): Promise<Cache> => new FileCache(config.directory).open(),
});
