// `logger.file`: log lines appended to a file, optionally rotated as the reference does (its
// lumberjack settings): at 10 MB the file is renamed with a timestamp and gzipped, one old file is
// kept, and with rotate_max_age_days old files past that age are deleted.
import {
  closeSync,
  fstatSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface LogFileConfig {
  path: string;
  rotate: boolean;
  rotate_max_age_days: number;
}

export interface LineSink {
  write(text: string): unknown;
}

const ROTATE_AT_BYTES = 10 * 1024 * 1024;
const KEPT_BACKUPS = 1;

/** Opens (creating, appending) the file; `rotateAtBytes` is for tests. Throws when it cannot. */
export function openLogFile(config: LogFileConfig, rotateAtBytes = ROTATE_AT_BYTES): LineSink {
  let fd = openSync(config.path, 'a', 0o666);
  let size = fstatSync(fd).size;
  return {
    write(text: string) {
      const bytes = Buffer.byteLength(text);
      if (config.rotate && size > 0 && size + bytes > rotateAtBytes) {
        closeSync(fd);
        rotate(config);
        fd = openSync(config.path, 'a', 0o666);
        size = 0;
      }
      writeSync(fd, text);
      size += bytes;
    },
  };
}

/** `app.log` → `app-2026-11-26T17-30-00.000.log.gz`, then old backups pruned. */
function rotate(config: LogFileConfig): void {
  const ext = extname(config.path);
  const stem = basename(config.path, ext);
  const stamp = new Date().toISOString().replace(/:/g, '-').replace('Z', '');
  const backup = join(dirname(config.path), `${stem}-${stamp}${ext}`);
  renameSync(config.path, backup);
  writeFileSync(`${backup}.gz`, gzipSync(readFileSync(backup)));
  rmSync(backup);
  pruneBackups(config, stem, ext);
}

function pruneBackups(config: LogFileConfig, stem: string, ext: string): void {
  const dir = dirname(config.path);
  const backups = readdirSync(dir)
    .filter((name) => name.startsWith(`${stem}-`) && (name.endsWith(ext) || name.endsWith(`${ext}.gz`)))
    .sort()
    .reverse(); // newest first: the names sort by their timestamp
  const maxAgeMs = config.rotate_max_age_days * 24 * 60 * 60 * 1000;
  backups.forEach((name, i) => {
    const full = join(dir, name);
    const tooOld = maxAgeMs > 0 && Date.now() - statSync(full).mtimeMs > maxAgeMs;
    if (i >= KEPT_BACKUPS || tooOld) rmSync(full, { force: true });
  });
}
