// What tar and zip archives hold for `archive`/`unarchive`: named files.

export interface ArchiveEntry {
  name: string;
  data: Uint8Array;
}

/** The mode the reference gives every archived message: a regular file, read-write for all. */
export const ENTRY_MODE = 0o666;
