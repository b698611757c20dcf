// How `archive` joins the contents of a batch into one, per format.
import type { Message } from '../../message/message.js';
import { serialiseParts } from './archive_binary.js';
import type { ArchiveEntry } from './archive_entries.js';
import { writeTar } from './archive_tar.js';
import { writeZip } from './archive_zip.js';

/** The joined content: bytes, or a structured value for `json_array`. */
export type Archived = { bytes: Uint8Array } | { value: unknown[] };

/** Joins a batch; `names` gives the path of each message (used by tar and zip only). */
export type Archiver = (
  batch: readonly Message[],
  names: (index: number) => string,
) => Archived | Promise<Archived>;

export const ARCHIVE_FORMATS = ['binary', 'concatenate', 'json_array', 'lines', 'tar', 'zip'] as const;

const NEWLINE = Buffer.from('\n');

const entries = (batch: readonly Message[], names: (index: number) => string): ArchiveEntry[] =>
  batch.map((msg, i) => ({ name: names(i), data: msg.bytes() }));

function joined(batch: readonly Message[], separator: Uint8Array | null): Uint8Array {
  const parts: Uint8Array[] = [];
  batch.forEach((msg, i) => {
    if (separator && i > 0) parts.push(separator);
    parts.push(msg.bytes());
  });
  return Buffer.concat(parts);
}

function jsonArray(batch: readonly Message[]): Archived {
  return {
    value: batch.map((msg) => {
      try {
        return msg.structured();
      } catch (err) {
        throw new Error(`failed to parse message as JSON: ${(err as Error).message}`);
      }
    }),
  };
}

export function archiverFor(format: string): Archiver {
  switch (format) {
    case 'binary':
      return (batch) => ({ bytes: serialiseParts(batch.map((msg) => msg.bytes())) });
    case 'concatenate':
      return (batch) => ({ bytes: joined(batch, null) });
    case 'lines':
      return (batch) => ({ bytes: joined(batch, NEWLINE) });
    case 'json_array':
      return jsonArray;
    case 'tar':
      return async (batch, names) => ({ bytes: await writeTar(entries(batch, names)) });
    case 'zip':
      return async (batch, names) => ({ bytes: await writeZip(entries(batch, names)) });
  }
  throw new Error(`archive format not recognised: ${format}`);
}
