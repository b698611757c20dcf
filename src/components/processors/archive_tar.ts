// Tar archives for `archive`/`unarchive`, through modern-tar (zero dependencies, USTAR with PAX
// and GNU long names): loaded on first use so configs without tar never pay for it.
import { type ArchiveEntry, ENTRY_MODE } from './archive_entries.js';

type ModernTar = typeof import('modern-tar');
let modernTar: ModernTar | undefined;

async function load(): Promise<ModernTar> {
  modernTar ??= await import('modern-tar');
  return modernTar;
}

/** A tar of regular files, modified now (as the reference stamps them). */
export async function writeTar(entries: readonly ArchiveEntry[]): Promise<Uint8Array> {
  const { packTar } = await load();
  const mtime = new Date();
  return packTar(
    entries.map(({ name, data }) => ({
      header: { name, size: data.byteLength, mode: ENTRY_MODE, mtime, type: 'file' as const },
      body: data,
    })),
  );
}

/**
 * Every entry of a tar (directories and links too, empty), in order. Strict: a bad header checksum
 * or a truncated archive is an error. Tar does not compress, so the entries never hold more bytes
 * than the archive: no decompression limit applies.
 */
export async function readTar(archive: Uint8Array): Promise<ArchiveEntry[]> {
  // An empty stream is an empty archive to the reference (its reader ends at once).
  if (archive.byteLength === 0) return [];
  const { unpackTar } = await load();
  let entries: Awaited<ReturnType<ModernTar['unpackTar']>>;
  try {
    entries = await unpackTar(archive, { strict: true });
  } catch (err) {
    throw new Error(`invalid tar archive: ${(err as Error).message}`);
  }
  return entries.map((entry) => ({ name: entry.header.name, data: entry.data ?? new Uint8Array(0) }));
}
