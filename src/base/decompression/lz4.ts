// The LZ4 frame format (what the `lz4` tool and the reference's pierrec/lz4 write), read block by
// block: each block is at most 4 MiB of output, and lz4js decodes one block at a time.
import { createRequire } from 'node:module';
import { type ByteQueue, type ChunkDecoder, NEED_INPUT } from './byte_queue.js';
import { CorruptInputError, type OutputBudget } from './limit.js';

const require = createRequire(import.meta.url);

const FRAME_MAGIC = 0x184d2204;
const SKIPPABLE_MASK = 0xfffffff0;
const SKIPPABLE_MAGIC = 0x184d2a50;
const UNCOMPRESSED_BIT = 0x80000000;
/** Linked blocks may copy from the 64 KiB of output before them. */
const HISTORY = 64 * 1024;
const BLOCK_SIZES: Record<number, number> = {
  4: 64 * 1024,
  5: 256 * 1024,
  6: 1024 * 1024,
  7: 4 * 1024 * 1024,
};

interface FrameHeader {
  maxBlock: number;
  blockChecksums: boolean;
  contentChecksum: boolean;
}

const truncated = () => new CorruptInputError('lz4: unexpected EOF');

/** Concatenated frames (and skippable frames between them) decode as one stream. */
export function* lz4Decoder(queue: ByteQueue, budget: OutputBudget): ChunkDecoder {
  const lz4 = require('lz4js') as typeof import('lz4js');
  let frames = 0;
  for (;;) {
    while (queue.available() < 4 && !queue.ended) yield NEED_INPUT;
    if (queue.available() === 0 && frames > 0) return;
    if (queue.available() < 4) throw truncated();
    const magic = queue.peekU32LE();
    if ((magic & SKIPPABLE_MASK) >>> 0 === SKIPPABLE_MAGIC) {
      yield* need(queue, 8);
      queue.take(4);
      const size = queue.peekU32LE();
      queue.take(4);
      // Skipped as it arrives: the frame may declare up to 4 GiB.
      for (let left = size; left > 0; ) {
        yield* need(queue, 1);
        left -= queue.take(Math.min(left, queue.available())).length;
      }
      continue;
    }
    if (magic !== FRAME_MAGIC) throw new CorruptInputError('lz4: invalid magic number');
    queue.take(4);
    const header = yield* readHeader(queue);
    yield* readBlocks(queue, header, budget, lz4.decompressBlock);
    frames++;
  }
}

/** Waits until `n` bytes are buffered; truncated input once the source ended short of them. */
function* need(queue: ByteQueue, n: number): ChunkDecoder {
  while (queue.available() < n) {
    if (queue.ended) throw truncated();
    yield NEED_INPUT;
  }
}

function* readHeader(queue: ByteQueue): Generator<Uint8Array | typeof NEED_INPUT, FrameHeader, undefined> {
  yield* need(queue, 2);
  const head = queue.take(2);
  const flags = head[0] as number;
  const bd = head[1] as number;
  if ((flags & 0xc0) !== 0x40) throw new CorruptInputError('lz4: unsupported frame version');
  if (flags & 0x01) throw new CorruptInputError('lz4: frames with a dictionary are not supported');
  const maxBlock = BLOCK_SIZES[(bd >> 4) & 0x07];
  if (maxBlock === undefined) throw new CorruptInputError('lz4: invalid block size');
  // Content size (8), then the header checksum (1); neither changes how blocks decode.
  const rest = (flags & 0x08 ? 8 : 0) + 1;
  yield* need(queue, rest);
  queue.take(rest);
  return { maxBlock, blockChecksums: (flags & 0x10) !== 0, contentChecksum: (flags & 0x04) !== 0 };
}

type BlockDecoder = (
  src: Uint8Array,
  dst: Uint8Array,
  sIndex: number,
  sLength: number,
  dIndex: number,
) => number;

function* readBlocks(
  queue: ByteQueue,
  header: FrameHeader,
  budget: OutputBudget,
  decompressBlock: BlockDecoder,
): ChunkDecoder {
  const window = new Uint8Array(HISTORY + header.maxBlock);
  let history = 0; // bytes of earlier output at the front of `window`
  for (;;) {
    yield* need(queue, 4);
    const word = queue.peekU32LE();
    queue.take(4);
    if (word === 0) break;
    const stored = (word & UNCOMPRESSED_BIT) !== 0;
    const size = (word & ~UNCOMPRESSED_BIT) >>> 0;
    if (size > header.maxBlock) throw new CorruptInputError('lz4: block larger than the frame allows');
    const total = size + (header.blockChecksums ? 4 : 0);
    yield* need(queue, total);
    const block = queue.take(total).subarray(0, size);
    let end: number;
    if (stored) {
      window.set(block, history);
      end = history + size;
    } else {
      end = decompressBlock(block, window, 0, size, history);
      if (end > window.length) throw new CorruptInputError('lz4: block decodes past its maximum size');
    }
    budget.take(end - history);
    yield window.slice(history, end);
    // Keep the last 64 KiB as the history the next (linked) block may refer to.
    const keepFrom = Math.max(0, end - HISTORY);
    window.copyWithin(0, keepFrom, end);
    history = end - keepFrom;
  }
  if (header.contentChecksum) {
    yield* need(queue, 4);
    queue.take(4);
  }
}
