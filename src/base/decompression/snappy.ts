// The raw snappy block format. snappyjs allocates the length the block declares and fills what
// the block holds, so a truncated block came back as zeros; the block is checked here first
// (every literal inside the input, every copy inside the output, the sum equal to the declared
// length) without allocating, then decoded.
import { createRequire } from 'node:module';
import { CorruptInputError, DecompressedTooLargeError, type OutputBudget } from './limit.js';

const require = createRequire(import.meta.url);

const corrupt = () => new CorruptInputError('snappy: corrupt input');

/** The declared length and where the tags start. */
function declaredLength(data: Uint8Array): { length: number; start: number } {
  let length = 0;
  for (let i = 0; i < 5 && i < data.length; i++) {
    const b = data[i] as number;
    length += (b & 0x7f) * 2 ** (7 * i);
    if (b < 0x80) {
      if (length > 0xffffffff) throw corrupt();
      return { length, start: i + 1 };
    }
  }
  throw corrupt();
}

function littleEndian(data: Uint8Array, at: number, bytes: number): number {
  let n = 0;
  for (let i = bytes - 1; i >= 0; i--) n = n * 256 + (data[at + i] as number);
  return n;
}

/** Walks the tags as the decoder will; throws unless they produce exactly `length` bytes. */
function checkTags(data: Uint8Array, start: number, length: number): void {
  let pos = start;
  let out = 0;
  while (pos < data.length) {
    const tag = data[pos++] as number;
    let len: number;
    let offset = 0;
    switch (tag & 3) {
      case 0: {
        len = (tag >>> 2) + 1;
        if (len > 60) {
          const extra = len - 60;
          if (pos + extra > data.length) throw corrupt();
          len = littleEndian(data, pos, extra) + 1;
          pos += extra;
        }
        if (pos + len > data.length) throw corrupt();
        pos += len;
        break;
      }
      case 1:
        if (pos + 1 > data.length) throw corrupt();
        len = ((tag >>> 2) & 7) + 4;
        offset = ((tag >>> 5) << 8) | (data[pos] as number);
        pos += 1;
        break;
      case 2:
        if (pos + 2 > data.length) throw corrupt();
        len = (tag >>> 2) + 1;
        offset = littleEndian(data, pos, 2);
        pos += 2;
        break;
      default:
        if (pos + 4 > data.length) throw corrupt();
        len = (tag >>> 2) + 1;
        offset = littleEndian(data, pos, 4);
        pos += 4;
    }
    if ((tag & 3) !== 0 && (offset === 0 || offset > out)) throw corrupt();
    out += len;
    if (out > length) throw corrupt();
  }
  if (out !== length) throw corrupt();
}

export function snappyDecode(data: Uint8Array, budget: OutputBudget): Uint8Array {
  const { length, start } = declaredLength(data);
  if (!budget.fits(length)) throw new DecompressedTooLargeError(budget.limit);
  checkTags(data, start, length);
  budget.take(length);
  const snappy = require('snappyjs') as typeof import('snappyjs');
  return snappy.uncompress(data, length);
}
