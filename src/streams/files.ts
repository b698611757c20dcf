// Stream files of `nekton streams [PATH...]` and their ids (spec §7.3): a file `foo.yaml` is
// stream `foo`; a directory is walked and `nested/inner/second.yaml` becomes `inner_second`.
import { readdir, stat } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';
import { ConfigError } from '../engine/errors.js';

export interface StreamFile {
  id: string;
  path: string;
}

const YAML_EXTENSION = /\.ya?ml$/;
/** Test definitions beside stream files are not streams. */
const TEST_FILE_ID = /_(benthos|nekton)_test$/;

/** Expands globs, walks directories and derives ids; two files with one id is an error. */
export async function resolveStreamFiles(args: readonly string[]): Promise<StreamFile[]> {
  const found: StreamFile[] = [];
  for (const arg of args) {
    for (const path of await expand(arg)) {
      if (await isDirectory(path)) found.push(...(await walk(path)));
      else found.push({ id: basename(path).replace(YAML_EXTENSION, ''), path });
    }
  }
  const seen = new Set<string>();
  for (const file of found) {
    if (seen.has(file.id)) throw new ConfigError(`stream id (${file.id}) collision from file: ${file.path}`);
    seen.add(file.id);
  }
  return found;
}

/** The files of a glob, sorted; a plain path is kept as given (a missing file fails later, by name). */
async function expand(arg: string): Promise<string[]> {
  if (!isDynamicPattern(arg)) return [arg];
  return (await glob(arg, { onlyFiles: false, expandDirectories: false })).sort();
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function walk(dir: string): Promise<StreamFile[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files: StreamFile[] = [];
  for (const entry of entries) {
    if (!entry.isFile() || !YAML_EXTENSION.test(entry.name)) continue;
    const path = join(entry.parentPath, entry.name);
    const id = relative(dir, path).replace(YAML_EXTENSION, '').split(sep).join('_');
    if (!TEST_FILE_ID.test(id)) files.push({ id, path });
  }
  return files.sort((a, b) => a.path.localeCompare(b.path));
}
