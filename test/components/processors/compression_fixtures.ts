// Files made by the standard command line tools (see test/fixtures/compression/SOURCE.md).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const dir = new URL('../../fixtures/compression/', import.meta.url);

export const fixture = (name: string): Buffer => readFileSync(new URL(name, dir));

/** The text `lines.txt` held when the fixtures were made from it. */
export const linesTxt = (): string =>
  Array.from({ length: 4000 }, (_, i) => `line ${i}: the quick brown fox jumps over the lazy dog\n`).join('');

export const hasTool = (name: string): boolean => spawnSync(name, ['--version']).status === 0;
