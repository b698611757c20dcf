// `file:DIR`: one JSON file per stream and resource (`DIR/<section>/<id>.json`), each written to a
// temp file, fsynced, renamed over the old one, and the directory fsynced: a crash leaves the old
// record or the new one, never half of one. No change feed: one process owns a directory.
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { errorMessage } from '../../engine/errors.js';
import {
  asStoredValue,
  decodeId,
  encodeId,
  isStoreSection,
  type StoredRecord,
  type StoredValue,
  type StoreKey,
  StoreOpenError,
  StoreWriteError,
  type StreamStore,
} from './store.js';

const SUFFIX = '.json';

export class FileStore implements StreamStore {
  readonly name: string;
  private readonly dir: string;
  private lastProblem: string | undefined;
  private tempCounter = 0;

  constructor(dir: string) {
    this.dir = resolve(dir);
    this.name = `file:${this.dir}`;
  }

  async open(): Promise<StoredRecord[]> {
    try {
      await mkdir(this.dir, { recursive: true });
      return await this.readAll();
    } catch (err) {
      throw new StoreOpenError(this.name, errorMessage(err));
    }
  }

  async put(key: StoreKey, value: StoredValue): Promise<void> {
    await this.writing(async () => {
      const sectionDir = join(this.dir, key.section);
      await mkdir(sectionDir, { recursive: true });
      const target = join(sectionDir, `${encodeId(key.id)}${SUFFIX}`);
      const temp = `${target}.${process.pid}.${this.tempCounter++}.tmp`;
      const handle = await open(temp, 'w');
      try {
        await handle.writeFile(JSON.stringify(value));
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, target).catch(async (err) => {
        await rm(temp, { force: true });
        throw err;
      });
      await syncDir(sectionDir);
    });
  }

  async remove(key: StoreKey): Promise<void> {
    await this.writing(async () => {
      const sectionDir = join(this.dir, key.section);
      await rm(join(sectionDir, `${encodeId(key.id)}${SUFFIX}`), { force: true });
      await syncDir(sectionDir).catch(() => undefined);
    });
  }

  problem(): string | undefined {
    return this.lastProblem;
  }

  watch(): void {
    // A directory has no change feed worth trusting across platforms: nothing to report.
  }

  async close(): Promise<void> {}

  /** A failed write is the store's problem until one succeeds again. */
  private async writing(work: () => Promise<void>): Promise<void> {
    try {
      await work();
      this.lastProblem = undefined;
    } catch (err) {
      this.lastProblem = `the last write failed: ${errorMessage(err)}`;
      throw new StoreWriteError(this.name, errorMessage(err));
    }
  }

  private async readAll(): Promise<StoredRecord[]> {
    const records: StoredRecord[] = [];
    for (const section of await readdir(this.dir)) {
      if (!isStoreSection(section)) continue;
      for (const name of (await readdir(join(this.dir, section))).sort()) {
        if (!name.endsWith(SUFFIX)) continue;
        const path = join(this.dir, section, name);
        let value: StoredValue | undefined;
        try {
          value = asStoredValue(JSON.parse(await readFile(path, 'utf8')));
        } catch (err) {
          throw new Error(`${path}: ${errorMessage(err)}`);
        }
        if (!value) throw new Error(`${path}: not a stored config`);
        records.push({ section, id: decodeId(name.slice(0, -SUFFIX.length)), value });
      }
    }
    return records;
  }
}

/** Makes a rename inside `dir` durable. */
async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
