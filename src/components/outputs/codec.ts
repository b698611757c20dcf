// Output codecs of the stdout and file outputs: how a batch becomes bytes in a stream.
import { ConfigError } from '../../engine/errors.js';
import type { Message } from '../../message/message.js';

export interface OutputCodec {
  /** Appended after each message that does not already end with it (empty for `append`/`all-bytes`). */
  delimiter: Buffer;
  /** `all-bytes`: each message replaces the whole file instead of being appended. */
  replaceWhole: boolean;
}

export const OUTPUT_CODEC_OPTIONS = ['all-bytes', 'append', 'lines', 'delim:x'];

export function parseOutputCodec(codec: string): OutputCodec {
  switch (codec) {
    case 'lines':
      return { delimiter: Buffer.from('\n'), replaceWhole: false };
    case 'append':
      return { delimiter: Buffer.alloc(0), replaceWhole: false };
    case 'all-bytes':
      return { delimiter: Buffer.alloc(0), replaceWhole: true };
  }
  if (codec.startsWith('delim:')) {
    const delim = codec.slice('delim:'.length);
    if (delim === '') throw new ConfigError('codec delim: needs a non-empty delimiter, e.g. delim:\\t');
    return { delimiter: Buffer.from(delim, 'utf8'), replaceWhole: false };
  }
  throw new ConfigError(
    `codec ${codec} is not recognised; expected one of ${OUTPUT_CODEC_OPTIONS.join(', ')}`,
  );
}

function endsWith(bytes: Uint8Array, suffix: Buffer): boolean {
  if (suffix.length === 0 || bytes.length < suffix.length) return false;
  const offset = bytes.length - suffix.length;
  for (let i = 0; i < suffix.length; i++) if (bytes[offset + i] !== suffix[i]) return false;
  return true;
}

/** The messages and their delimiters as one buffer, so a batch is a single write. */
export function encodeMessages(messages: readonly Message[], codec: OutputCodec): Buffer {
  return encodeBatches([messages], codec);
}

/** Several batches as one buffer: each message followed by the delimiter unless it ends with it. */
export function encodeBatches(batches: readonly (readonly Message[])[], codec: OutputCodec): Buffer {
  const delim = codec.delimiter;
  const delimLength = delim.length;
  let total = 0;
  for (let b = 0; b < batches.length; b++) {
    const messages = batches[b]!;
    for (let i = 0; i < messages.length; i++) {
      const bytes = messages[i]!.bytes();
      total += bytes.length;
      if (delimLength > 0 && !endsWith(bytes, delim)) total += delimLength;
    }
  }
  const out = Buffer.allocUnsafe(total);
  // The common delimiter is one byte (\n): stored directly instead of copied.
  const delimByte = delimLength === 1 ? delim[0]! : -1;
  let pos = 0;
  for (let b = 0; b < batches.length; b++) {
    const messages = batches[b]!;
    for (let i = 0; i < messages.length; i++) {
      const bytes = messages[i]!.bytes();
      out.set(bytes, pos);
      pos += bytes.length;
      if (delimLength > 0 && !endsWith(bytes, delim)) {
        if (delimByte >= 0) out[pos++] = delimByte;
        else {
          out.set(delim, pos);
          pos += delimLength;
        }
      }
    }
  }
  return out;
}
