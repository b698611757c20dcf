// Runs a chunk decoder so that it shares the event loop: between chunks it hands control back
// whenever it has held it for a slice, so other streams, `/ping` and signals keep going.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ByteQueue, type ChunkDecoder, NEED_INPUT } from '../../base/decompression/byte_queue.js';
import type { ByteSource } from '../scanners/scanner.js';

/** The longest the decoder runs before it lets other work in (one chunk may run past it). */
const SLICE_MS = 20;

/** Lets queued I/O and timers run once the current slice is used up. */
export class Slices {
  private started = performance.now();

  /** `stop` ends the work early (the stream shuts down): share() then throws. */
  constructor(private readonly stop?: AbortSignal) {}

  async share(): Promise<void> {
    if (performance.now() - this.started < SLICE_MS) return;
    await nextTurn();
    if (this.stop?.aborted) throw new Error('decompression stopped: the stream is shutting down');
    this.started = performance.now();
  }
}

/** Decodes a whole buffer's decoder to one buffer, yielding between chunks. */
export async function decodeWhole(decoder: ChunkDecoder, stop?: AbortSignal): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let size = 0;
  const slices = new Slices(stop);
  for (const chunk of decoder) {
    if (chunk === NEED_INPUT) throw new Error('decoder asked for input after the end');
    parts.push(chunk);
    size += chunk.length;
    await slices.share();
  }
  return Buffer.concat(parts, size);
}

function toBuffer(chunk: Uint8Array | string): Buffer {
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/** Decodes a byte stream as it arrives: reads input only when the decoder needs more. */
export async function* decodeStream(
  source: ByteSource,
  decoderFor: (queue: ByteQueue) => ChunkDecoder,
): AsyncIterable<Buffer> {
  const queue = new ByteQueue();
  const decoder = decoderFor(queue);
  const input = source[Symbol.asyncIterator]();
  const slices = new Slices();
  try {
    for (let step = decoder.next(); !step.done; step = decoder.next()) {
      if (step.value === NEED_INPUT) {
        const next = await input.next();
        if (next.done) queue.ended = true;
        else queue.append(toBuffer(next.value));
        continue;
      }
      yield toBuffer(step.value);
      await slices.share();
    }
  } finally {
    await input.return?.();
  }
}
