// The files behind `blobl server --mapping-file/--input-file`: their texts fill the page, and with
// `--write` the page's latest mapping and input go back to them (a file that does not exist yet
// is created), shortly after an edit and once more when the server stops.
import { readFile, writeFile } from 'node:fs/promises';
import { errorMessage } from '../engine/errors.js';
import type { InitialTexts } from './page.js';

export interface PlaygroundFileOptions {
  mappingFile?: string;
  inputFile?: string;
  write: boolean;
  /** Where write failures are reported. */
  warn: (message: string) => void;
}

/** How long after the last edit the files are written (the reference writes every 5 seconds). */
const WRITE_DELAY_MS = 500;

export class PlaygroundFiles {
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly options: PlaygroundFileOptions,
    private texts: InitialTexts,
  ) {}

  /** Reads the files; a missing one is an error unless `write` will create it. */
  static async load(options: PlaygroundFileOptions): Promise<PlaygroundFiles> {
    const texts: InitialTexts = {};
    if (options.mappingFile) texts.mapping = await readOptional(options.mappingFile, options.write);
    if (options.inputFile) texts.input = await readOptional(options.inputFile, options.write);
    return new PlaygroundFiles(options, texts);
  }

  current(): InitialTexts {
    return { ...this.texts };
  }

  /** What the page just ran: remembered, and written back when `write` is on. */
  update(mapping: string, input: string): void {
    const next: InitialTexts = {
      mapping: this.options.mappingFile ? mapping : this.texts.mapping,
      input: this.options.inputFile ? input : this.texts.input,
    };
    if (next.mapping === this.texts.mapping && next.input === this.texts.input) return;
    this.texts = next;
    if (!this.options.write) return;
    this.dirty = true;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), WRITE_DELAY_MS);
  }

  /** Writes pending changes now (called on stop as well). */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    if (!this.dirty) return;
    this.dirty = false;
    const { mappingFile, inputFile, warn } = this.options;
    const writes: [string | undefined, string | undefined][] = [
      [mappingFile, this.texts.mapping],
      [inputFile, this.texts.input],
    ];
    for (const [file, text] of writes) {
      if (!file || text === undefined) continue;
      await writeFile(file, text).catch((e) => warn(`failed to write ${file}: ${errorMessage(e)}`));
    }
  }
}

async function readOptional(file: string, mayBeMissing: boolean): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    if (mayBeMissing && (e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}
