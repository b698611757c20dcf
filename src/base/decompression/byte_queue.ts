// Compressed bytes as they arrive, for decoders that read synchronously: a decoder checks
// `available()` before it reads, and yields NEED_INPUT for the driver to append more.

export class ByteQueue {
  private buf: Uint8Array = new Uint8Array(0);
  private pos = 0;
  /** Chunks appended since the last read, joined only when a read needs them (once per wait). */
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  /** The source has no more bytes: a read past the end is then truncated input. */
  ended = false;

  /** A queue over one whole buffer (no more input will come). */
  static of(data: Uint8Array): ByteQueue {
    const q = new ByteQueue();
    q.buf = data;
    q.ended = true;
    return q;
  }

  available(): number {
    return this.buf.length - this.pos + this.pendingBytes;
  }

  append(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
  }

  /** The next byte, or -1 at the end of the input. */
  readByte(): number {
    if (this.pos >= this.buf.length && !this.join()) return -1;
    return this.buf[this.pos++] as number;
  }

  /** The next `n` bytes as a view (the caller checked `available()`). */
  take(n: number): Uint8Array {
    if (this.buf.length - this.pos < n) this.join();
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /** A little-endian 32-bit number `offset` bytes ahead, without consuming it. */
  peekU32LE(offset = 0): number {
    if (this.buf.length - this.pos < offset + 4) this.join();
    const b = this.buf;
    const p = this.pos + offset;
    return (
      ((b[p] as number) |
        ((b[p + 1] as number) << 8) |
        ((b[p + 2] as number) << 16) |
        ((b[p + 3] as number) << 24)) >>>
      0
    );
  }

  /** Moves the pending chunks into the read buffer, keeping only the unread tail; false if none. */
  private join(): boolean {
    if (this.pendingBytes === 0) return false;
    const rest = this.buf.subarray(this.pos);
    const joined = new Uint8Array(rest.length + this.pendingBytes);
    joined.set(rest, 0);
    let at = rest.length;
    for (const chunk of this.pending) {
      joined.set(chunk, at);
      at += chunk.length;
    }
    this.buf = joined;
    this.pos = 0;
    this.pending = [];
    this.pendingBytes = 0;
    return true;
  }
}

/** What a decoder yields when it needs more input than the queue holds (never once `ended`). */
export const NEED_INPUT = Symbol('need input');

/** A decoder: yields output chunks, or NEED_INPUT to be resumed once more bytes were appended. */
export type ChunkDecoder = Generator<Uint8Array | typeof NEED_INPUT, void, undefined>;
