// Binlog positions of mysql_cdc as the reference stores them in the checkpoint cache:
// `<file>@<offset as 8 upper-case hex digits>`, which sorts as the binlog does.

export interface BinlogPosition {
  file: string;
  pos: number;
}

export function formatPosition({ file, pos }: BinlogPosition): string {
  return `${file}@${pos.toString(16).toUpperCase().padStart(8, '0')}`;
}

export function parsePosition(text: string): BinlogPosition {
  const at = text.lastIndexOf('@');
  const pos = at > 0 ? Number.parseInt(text.slice(at + 1), 16) : Number.NaN;
  if (at <= 0 || !/^[0-9A-Fa-f]+$/.test(text.slice(at + 1)) || !Number.isSafeInteger(pos))
    throw new Error(`'${text}' is not a binlog position (expected file@hexoffset)`);
  return { file: text.slice(0, at), pos };
}

export function comparePositions(a: BinlogPosition, b: BinlogPosition): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.pos - b.pos;
}
