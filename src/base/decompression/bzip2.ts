// bzip2, decoded block by block with seek-bzip's block steps, and each block's bytes written out
// in slices by a resumable loop of our own: a 900 kB block can expand to ~46 MB through its
// run-length step, too much to produce in one go while other streams wait.
import { createRequire } from 'node:module';
import type { BunzipState, BzipInput } from 'seek-bzip';
import { type ByteQueue, type ChunkDecoder, NEED_INPUT } from './byte_queue.js';
import { CorruptInputError, type OutputBudget } from './limit.js';

const require = createRequire(import.meta.url);

/**
 * The most compressed bytes one block can span: 900k symbols of at most 20 bits each plus its
 * tables. A block starts only with this much buffered (or the input ended), because the decoder
 * reads synchronously and cannot wait in the middle of a block.
 */
const BLOCK_WINDOW = 3 * 1024 * 1024;

/** Output is handed on in pieces of this size, each a point where the driver may yield. */
const PIECE_BYTES = 256 * 1024;

class TruncatedError extends CorruptInputError {
  constructor() {
    super('bzip2: unexpected EOF');
  }
}

function inputOf(queue: ByteQueue): BzipInput {
  return {
    readByte() {
      const b = queue.readByte();
      if (b < 0) throw new TruncatedError();
      return b;
    },
    read(buffer: Uint8Array, offset: number, length: number) {
      for (let i = 0; i < length; i++) buffer[offset + i] = this.readByte();
      return length;
    },
    seek() {
      throw new Error('bzip2: seeking is not supported');
    },
  };
}

/** seek-bzip writes through this only from its own decode loop, which nekton does not call. */
const UNUSED_OUTPUT = {
  writeByte(): void {
    throw new Error('bzip2: unexpected direct output');
  },
};

/** Concatenated streams decode as one, as Go's reader and `bzip2 -d` do. */
export function* bzip2Decoder(queue: ByteQueue, budget: OutputBudget): ChunkDecoder {
  const Bunzip = require('seek-bzip') as typeof import('seek-bzip');
  const input = inputOf(queue);
  while (queue.available() < 4 && !queue.ended) yield NEED_INPUT;
  const bz = wrapped(() => new Bunzip(input, UNUSED_OUTPUT));
  for (;;) {
    while (queue.available() < BLOCK_WINDOW && !queue.ended) yield NEED_INPUT;
    if (wrapped(() => bz._init_block())) {
      yield* blockBytes(bz, budget);
      continue;
    }
    const expected = wrapped(() => bz.reader.read(32)) >>> 0;
    if (expected !== bz.streamCRC) throw new CorruptInputError('bzip2: bad stream checksum');
    while (queue.available() === 0 && !queue.ended) yield NEED_INPUT;
    if (queue.available() === 0) return;
    while (queue.available() < 4 && !queue.ended) yield NEED_INPUT;
    wrapped(() => bz._start_bunzip(input, UNUSED_OUTPUT));
  }
}

/**
 * The bytes of the block just read, in pieces. The block is a linked list through `dbuf`; four
 * equal bytes in a row are followed by a count of further copies (bzip2's first run-length step).
 */
function* blockBytes(bz: BunzipState, budget: OutputBudget): Generator<Uint8Array, void, undefined> {
  const dbuf = bz.dbuf;
  const crc = bz.blockCRC;
  let next = bz.writePos;
  let current = bz.writeCurrent;
  let run = bz.writeRun;
  let piece = Buffer.allocUnsafe(PIECE_BYTES);
  let used = 0;
  for (let left = bz.writeCount; left > 0; left--) {
    const previous = current;
    const entry = dbuf[next] as number;
    current = entry & 0xff;
    next = entry >>> 8;
    let byte = current;
    let copies = 1;
    if (run++ === 3) {
      // `current` is the count of extra copies of the byte before it, not a byte itself.
      byte = previous;
      copies = current;
      current = -1;
    }
    crc.updateCRCRun(byte, copies);
    while (copies > 0) {
      const n = Math.min(copies, PIECE_BYTES - used);
      piece.fill(byte, used, used + n);
      used += n;
      copies -= n;
      if (used === PIECE_BYTES) {
        budget.take(used);
        yield piece;
        piece = Buffer.allocUnsafe(PIECE_BYTES);
        used = 0;
      }
    }
    if (current !== previous) run = 0;
  }
  bz.writeCount = 0;
  if (used > 0) {
    budget.take(used);
    yield piece.subarray(0, used);
  }
  if (crc.getCRC() !== bz.targetBlockCRC) throw new CorruptInputError('bzip2: bad block checksum');
}

/** seek-bzip's errors for bad data (TypeErrors with an errorCode) become errors naming bzip2. */
function wrapped<T>(step: () => T): T {
  try {
    return step();
  } catch (err) {
    if (err instanceof Error && !('errorCode' in err)) throw err;
    throw new CorruptInputError(`bzip2: ${err instanceof Error ? err.message : String(err)}`);
  }
}
