// The path forms `nekton lint` and `nekton test` take, as Benthos reads them: a file, a quoted glob
// (expanded here), `dir/...` (every matching file under dir, recursively), and, beyond Benthos
// (which fails to read a directory as a file), a plain directory: the matching files directly in it.
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isDynamicPattern } from 'tinyglobby';
import { filesOfPattern } from '../config/path_patterns.js';
import { ConfigError, errorMessage } from '../engine/errors.js';

export type PathForm = 'tree' | 'pattern' | 'directory' | 'file';

/** The files one argument names, sorted, and which form it took; `file` is the argument itself. */
export async function filesOfPathArgument(
  arg: string,
  extension: RegExp,
): Promise<{ form: PathForm; files: string[] }> {
  const treeRoot = recursiveWalkRoot(arg);
  if (treeRoot !== undefined) return { form: 'tree', files: await filesIn(treeRoot, extension, true) };
  if (isDynamicPattern(arg)) return { form: 'pattern', files: await filesOfPattern(arg) };
  if (await isDirectory(arg)) return { form: 'directory', files: await filesIn(arg, extension, false) };
  return { form: 'file', files: [arg] };
}

/** `./...`, `...` and `dir/...` walk a tree (Go's package pattern, as Benthos reads it). */
function recursiveWalkRoot(arg: string): string | undefined {
  if (arg === '...' || arg === './...') return '.';
  if (arg.endsWith('/...')) return arg.slice(0, -'/...'.length) || '/';
  return undefined;
}

async function filesIn(dir: string, extension: RegExp, recursive: boolean): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { recursive, withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ConfigError(`${dir}: ${code === 'ENOENT' ? 'no such directory' : errorMessage(err)}`);
  }
  return entries
    .filter((entry) => entry.isFile() && extension.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
