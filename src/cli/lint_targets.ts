// The files `nekton lint` checks, from Benthos's argument forms: a file, a quoted glob (expanded
// here), `dir/...` (every config file under dir, recursively), and, beyond Benthos (which fails to
// read a directory as a file), a plain directory: the config files directly in it.
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isDynamicPattern } from 'tinyglobby';
import { filesOfPattern } from '../config/path_patterns.js';
import { ConfigError, errorMessage } from '../engine/errors.js';

const CONFIG_EXTENSION = /\.(ya?ml|json)$/;

/** The files one argument names, sorted; an argument that names no config file is a ConfigError. */
export async function lintTargets(arg: string): Promise<string[]> {
  const recursiveRoot = recursiveWalkRoot(arg);
  if (recursiveRoot !== undefined) {
    return nonEmpty(await configFilesIn(recursiveRoot, true), `${arg}: no .yaml, .yml or .json files found`);
  }
  if (isDynamicPattern(arg)) {
    return nonEmpty(await filesOfPattern(arg), `${arg}: pattern did not match any files`);
  }
  if (await isDirectory(arg)) {
    return nonEmpty(await configFilesIn(arg, false), `${arg}: directory holds no .yaml, .yml or .json files`);
  }
  return [arg];
}

/** `./...`, `...` and `dir/...` walk a tree (Go's package pattern, as Benthos reads it). */
function recursiveWalkRoot(arg: string): string | undefined {
  if (arg === '...' || arg === './...') return '.';
  if (arg.endsWith('/...')) return arg.slice(0, -'/...'.length) || '/';
  return undefined;
}

async function configFilesIn(dir: string, recursive: boolean): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { recursive, withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ConfigError(`${dir}: ${code === 'ENOENT' ? 'no such directory' : errorMessage(err)}`);
  }
  return entries
    .filter((entry) => entry.isFile() && CONFIG_EXTENSION.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

function nonEmpty(files: string[], problem: string): string[] {
  if (files.length === 0) throw new ConfigError(problem);
  return files;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
