import { type ChunkDecoder, NEED_INPUT } from './byte_queue.js';

/** Decodes a whole buffer's decoder in one go: for Bloblang, whose methods are synchronous (the size limit bounds it). */
export function decodeWholeSync(decoder: ChunkDecoder): Uint8Array {
  const parts: Uint8Array[] = [];
  let size = 0;
  for (const chunk of decoder) {
    if (chunk === NEED_INPUT) throw new Error('decoder asked for input after the end');
    parts.push(chunk);
    size += chunk.length;
  }
  return Buffer.concat(parts, size);
}
