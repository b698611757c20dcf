// The codecs that separate messages on a subprocess's pipes (lines, length_prefixed_uint32_be,
// netstring), as Go's bufio.Scanner reads them: a frame longer than max_buffer is an error.
export type FrameCodec = 'lines' | 'length_prefixed_uint32_be' | 'netstring';

export const TOKEN_TOO_LONG = 'bufio.Scanner: token too long';

/** Splits a byte stream into frames; push() throws on a frame over the bound or a bad frame. */
export class FrameReader {
  private pending: Buffer = Buffer.alloc(0);

  constructor(
    private readonly codec: FrameCodec,
    private readonly maxBuffer: number,
  ) {}

  push(chunk: Buffer): Buffer[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const frames: Buffer[] = [];
    for (;;) {
      const frame = this.next();
      if (frame === null) break;
      frames.push(frame);
    }
    if (this.pending.length >= this.maxBuffer) throw new Error(TOKEN_TOO_LONG);
    return frames;
  }

  /** What is left at the end of the stream: a last line without its newline (lines only). */
  end(): Buffer[] {
    const rest = this.pending;
    this.pending = Buffer.alloc(0);
    if (this.codec !== 'lines' || rest.length === 0) return [];
    return [dropCR(rest)];
  }

  private next(): Buffer | null {
    const data = this.pending;
    if (this.codec === 'lines') {
      const nl = data.indexOf(10);
      if (nl < 0) return null;
      // The scanner must hold the line and its newline in its buffer.
      if (nl + 1 > this.maxBuffer) throw new Error(TOKEN_TOO_LONG);
      this.pending = data.subarray(nl + 1);
      return dropCR(data.subarray(0, nl));
    }
    if (this.codec === 'length_prefixed_uint32_be') {
      if (data.length < 4) return null;
      const size = data.readUInt32BE(0);
      if (size + 4 > this.maxBuffer) throw new Error(TOKEN_TOO_LONG);
      if (data.length - 4 < size) return null;
      this.pending = data.subarray(4 + size);
      return data.subarray(4, 4 + size);
    }
    const colon = data.indexOf(58);
    if (colon < 0) return null;
    if (colon === 0) throw new Error("encountered invalid netstring: netstring starts with colon (':')");
    const text = data.subarray(0, colon).toString('latin1');
    if (!/^\d+$/.test(text))
      throw new Error(`encountered invalid netstring: unable to decode length '${text}'`);
    const size = Number(text);
    if (size > this.maxBuffer) throw new Error(TOKEN_TOO_LONG);
    if (data.length <= colon + 1 + size) return null;
    if (data[colon + 1 + size] !== 44)
      throw new Error('encountered invalid netstring: trailing comma-character is missing');
    this.pending = data.subarray(colon + 2 + size);
    return data.subarray(colon + 1, colon + 1 + size);
  }
}

function dropCR(line: Buffer): Buffer {
  return line.length > 0 && line[line.length - 1] === 13 ? line.subarray(0, line.length - 1) : line;
}
