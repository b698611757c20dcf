// Output codecs of the stdout and file outputs: how a batch becomes bytes in a stream.
import { type FieldOptions, type FieldSpec, field } from '../../config/spec.js';
import { ConfigError, errorMessage } from '../../engine/errors.js';
import type { Message } from '../../message/message.js';

export interface OutputCodec {
  /** Appended after each message that does not already end with it (empty for `append`/`all-bytes`). */
  delimiter: Buffer;
  /** `all-bytes`: each message replaces the whole file instead of being appended. */
  replaceWhole: boolean;
}

export const OUTPUT_CODEC_OPTIONS = ['all-bytes', 'append', 'lines', 'delim:x'];

/** The `codec` field of the stdout and file outputs; the factory receives the parsed codec. */
export function outputCodecField(
  description: string,
  options: FieldOptions,
): FieldSpec<'codec', string, OutputCodec> {
  const text = field.string('codec', description, options);
  return { ...text, parse: (codec: string) => parseOutputCodec(codec) } as FieldSpec<
    'codec',
    string,
    OutputCodec
  >;
}

/** What lint says about a codec the outputs cannot use (an unknown name, an empty delimiter). */
export function outputCodecProblems(codec: string): string[] {
  try {
    parseOutputCodec(codec);
    return [];
  } catch (err) {
    return [errorMessage(err)];
  }
}

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

/** The messages and their delimiters as one buffer, so a batch is a single write. */
export function encodeMessages(messages: readonly Message[], codec: OutputCodec): Buffer {
  return encodeBatches([messages], codec);
}

/** Several batches as one buffer: each message followed by the delimiter unless it ends with it. */
export function encodeBatches(batches: readonly (readonly Message[])[], codec: OutputCodec): Buffer {
  return encodeGroups([batches], codec);
}

/** Groups of batches, in order, as one buffer (what several writeGroup calls would write). */
export function encodeGroups(
  groups: readonly (readonly (readonly Message[])[])[],
  codec: OutputCodec,
): Buffer {
  const delim = codec.delimiter;
  const delimLength = delim.length;
  // The common delimiter is one byte (\n): compared and stored directly.
  const delimByte = delimLength === 1 ? delim[0]! : -1;
  let total = 0;
  for (let g = 0; g < groups.length; g++) {
    const batches = groups[g]!;
    for (let b = 0; b < batches.length; b++) {
      const messages = batches[b]!;
      for (let i = 0; i < messages.length; i++) {
        const msg = messages[i]!;
        const chunk = delimByte >= 0 ? msg.sourceChunk : null;
        if (chunk !== null) {
          // A line still in its chunk: its size and last byte are read directly, no call per question.
          const start = msg.sourceStart;
          const end = msg.sourceEnd;
          total += end - start + (end > start && chunk[end - 1] === delimByte ? 0 : 1);
          continue;
        }
        total += msg.byteSize();
        if (delimLength > 0 && !msg.endsWith(delim)) total += delimLength;
      }
    }
  }
  const out = Buffer.allocUnsafe(total);
  // Lines scanned from one chunk, each followed there by this delimiter, are already laid out as
  // the output wants them: a run of them is copied with one call, as `cat` would.
  let runChunk: Buffer | null = null;
  let runStart = 0;
  let runEnd = 0;
  let pos = 0;
  for (let g = 0; g < groups.length; g++) {
    const batches = groups[g]!;
    for (let b = 0; b < batches.length; b++) {
      const messages = batches[b]!;
      for (let i = 0; i < messages.length; i++) {
        const msg = messages[i]!;
        const chunk = delimByte >= 0 ? msg.sourceChunk : null;
        if (chunk !== null) {
          const start = msg.sourceStart;
          const end = msg.sourceEnd;
          const endsWithDelim = end > start && chunk[end - 1] === delimByte;
          if (!endsWithDelim && end < chunk.length && chunk[end] === delimByte) {
            if (runChunk === chunk && runEnd === start) {
              runEnd = end + 1;
              continue;
            }
            if (runChunk !== null) pos += runChunk.copy(out, pos, runStart, runEnd);
            runChunk = chunk;
            runStart = start;
            runEnd = end + 1;
            continue;
          }
          if (runChunk !== null) {
            pos += runChunk.copy(out, pos, runStart, runEnd);
            runChunk = null;
          }
          pos += chunk.copy(out, pos, start, end);
          if (!endsWithDelim) out[pos++] = delimByte;
          continue;
        }
        if (runChunk !== null) {
          pos += runChunk.copy(out, pos, runStart, runEnd);
          runChunk = null;
        }
        pos += msg.copyBytesTo(out, pos);
        if (delimLength > 0 && !msg.endsWith(delim)) {
          if (delimByte >= 0) out[pos++] = delimByte;
          else {
            out.set(delim, pos);
            pos += delimLength;
          }
        }
      }
    }
  }
  if (runChunk !== null) runChunk.copy(out, pos, runStart, runEnd);
  return out;
}
