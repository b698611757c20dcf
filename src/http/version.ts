// The version and build date reported by `/version`, read from the package that holds this module.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface BuildInfo {
  version: string;
  built: string;
}

let cached: BuildInfo | undefined;

/**
 * Walks up from this file to the nearest package.json, so it works from `src/` (tsx) and `dist/`.
 * `built` is this module file's modification time: the build time for `dist/`, a best guess otherwise.
 */
export function buildInfo(): BuildInfo {
  if (cached) return cached;
  const moduleFile = fileURLToPath(import.meta.url);
  let dir = dirname(moduleFile);
  let version = 'unknown';
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: unknown };
      if (typeof pkg.version === 'string') version = pkg.version;
      break;
    } catch {
      const parent = dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
  let built = 'unknown';
  try {
    built = statSync(moduleFile)
      .mtime.toISOString()
      .replace(/\.\d+Z$/, 'Z');
  } catch {
    // keep 'unknown', like a reference build without ldflags
  }
  cached = { version, built };
  return cached;
}
