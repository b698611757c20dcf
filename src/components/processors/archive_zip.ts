// Zip archives for `archive`/`unarchive`. Written with fflate (zero dependencies; its streaming
// writer takes any entry name, empty and repeated ones included, as the reference's does); read
// with yauzl (the central directory, entry sizes checked against what inflates). Both load on
// first use so configs without zip never pay for them.
import { crc32 } from 'node:zlib';
import { OutputBudget } from '../../base/decompression/limit.js';
import { type ArchiveEntry, ENTRY_MODE } from './archive_entries.js';

type Fflate = typeof import('fflate');
type Yauzl = typeof import('yauzl');
let fflate: Fflate | undefined;
let yauzl: Yauzl | undefined;

/** Zip without its zip64 extension counts entries in 16 bits and sizes in 32. */
const MAX_ENTRIES = 0xffff;
const MAX_BYTES = 0xffffffff;
const UNIX = 3;
const REGULAR_FILE = 0o100000;

/** A zip of regular files, each deflated and modified now (as the reference writes them). */
export async function writeZip(entries: readonly ArchiveEntry[]): Promise<Uint8Array> {
  fflate ??= await import('fflate');
  if (entries.length > MAX_ENTRIES) throw new Error(`a zip archive holds at most ${MAX_ENTRIES} files`);
  const chunks: Uint8Array[] = [];
  let failure: Error | null = null;
  let size = 0;
  const zip = new fflate.Zip((err, chunk) => {
    if (err) failure ??= err;
    else {
      chunks.push(chunk);
      size += chunk.byteLength;
    }
  });
  const mtime = new Date();
  for (const { name, data } of entries) {
    if (data.byteLength >= MAX_BYTES)
      throw new Error(`a zip archive file holds less than ${MAX_BYTES} bytes`);
    const file = new fflate.ZipDeflate(name, { level: 6 });
    file.mtime = mtime;
    file.os = UNIX;
    file.attrs = ((REGULAR_FILE | ENTRY_MODE) << 16) >>> 0;
    zip.add(file);
    file.push(data, true);
  }
  zip.end();
  if (failure) throw failure;
  if (size >= MAX_BYTES) throw new Error(`a zip archive holds less than ${MAX_BYTES} bytes`);
  return Buffer.concat(chunks, size);
}

/**
 * Every entry of a zip, in central-directory order. Inflated bytes count against `limit` (each
 * entry's declared size is checked before it is inflated, and yauzl stops an entry that inflates
 * past what it declared), so a zip bomb fails instead of filling memory. A checksum that does not
 * match is an error, as in the reference.
 */
export async function readZip(archive: Uint8Array, limit: number): Promise<ArchiveEntry[]> {
  yauzl ??= (await import('yauzl')).default;
  const buffer = Buffer.isBuffer(archive)
    ? archive
    : Buffer.from(archive.buffer, archive.byteOffset, archive.byteLength);
  const budget = new OutputBudget(limit);
  // Names are taken as UTF-8 bytes, as the reference takes them: no path rules (yauzl's decoding
  // rejects absolute and `..` names the reference accepts).
  const zipfile = await yauzl.fromBufferPromise(buffer, { decodeStrings: false, validateEntrySizes: true });
  const entries: ArchiveEntry[] = [];
  for await (const entry of zipfile.eachEntry()) {
    const name = (entry.fileName as unknown as Buffer).toString('utf8');
    budget.take(entry.uncompressedSize);
    const stream = await zipfile.openReadStreamPromise(entry);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const data = Buffer.concat(chunks);
    if (crc32(data) !== entry.crc32) throw new Error(`zip: checksum error in ${JSON.stringify(name)}`);
    entries.push({ name, data });
  }
  return entries;
}
