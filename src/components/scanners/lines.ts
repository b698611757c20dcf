// The `lines` scanner: one message per line (or per custom delimiter).
import { defineComponent, field } from '../../config/spec.js';
import { Message } from '../../message/message.js';
import { asBuffer, type ByteSource, type Scanner, scanned } from './scanner.js';

export class TokenTooLongError extends Error {
  constructor(limit: number) {
    super(`a message exceeds max_buffer_size (${limit} bytes) before its delimiter was found`);
  }
}

const NEWLINE = Buffer.from('\n');

/**
 * Splits on `delimiter`. Complete lines are zero-copy views of the chunk they came from; only a
 * line that spans chunks is copied (once, when its end is found).
 */
export function splitLines(options: {
  delimiter?: string;
  maxBufferSize: number;
  omitEmpty: boolean;
}): Scanner {
  const custom = options.delimiter !== undefined && options.delimiter !== '';
  const delim = custom ? Buffer.from(options.delimiter as string, 'utf8') : NEWLINE;
  // Without a custom delimiter, lines end at \n with an optional \r before it (Go's ScanLines).
  const stripCR = !custom;
  const { maxBufferSize } = options;
  const rules: LineRules = { stripCR, maxBufferSize, omitEmpty: options.omitEmpty };

  // A one-byte delimiter (the default \n) is searched for as a number, which is faster, and
  // cannot be split across chunks, so a chunk never needs to be joined to the line before it.
  if (delim.length === 1) return scanOnByte(delim[0]!, rules);

  return async function* scanLines(source: ByteSource) {
    let carry: Buffer | null = null; // the unfinished line from earlier chunks
    for await (const raw of source) {
      let buf = asBuffer(raw);
      let searchFrom = 0;
      if (carry !== null) {
        // Restart the search a delimiter's length early so a delimiter split across chunks is found.
        searchFrom = Math.max(0, carry.length - delim.length + 1);
        buf = Buffer.concat([carry, buf]);
        carry = null;
      }
      let rest = buf.length; // where the unfinished line starts
      yield* scanned((out) => {
        rest = pushLines(out, buf, 0, buf.indexOf(delim, searchFrom), delim, rules);
        if (buf.length - rest > maxBufferSize) throw new TokenTooLongError(maxBufferSize);
      });
      if (rest < buf.length) carry = buf.subarray(rest);
    }
    if (carry !== null && carry.length > 0) yield* lastLine(carry, rules);
  };
}

interface LineRules {
  stripCR: boolean;
  maxBufferSize: number;
  omitEmpty: boolean;
}

/**
 * Adds every line of `buf` from `start` that ends with a delimiter (the first found at `end`) to
 * `out`, as views of the chunk; returns where the unfinished rest starts.
 */
function pushLines(
  out: Message[],
  buf: Buffer,
  start: number,
  end: number,
  delim: number | Buffer,
  rules: LineRules,
): number {
  const delimLength = typeof delim === 'number' ? 1 : delim.length;
  while (end !== -1) {
    let lineEnd = end;
    if (rules.stripCR && lineEnd > start && buf[lineEnd - 1] === 0x0d) lineEnd--;
    if (lineEnd - start > rules.maxBufferSize) throw new TokenTooLongError(rules.maxBufferSize);
    if (!rules.omitEmpty || lineEnd > start) out.push(Message.ofChunk(buf, start, lineEnd));
    start = end + delimLength;
    end = buf.indexOf(delim, start);
  }
  return start;
}

/** A line already cut out of the stream (it spanned chunks, or ends it): its message, or null when omitted. */
function wholeLine(line: Buffer, rules: LineRules): Message | null {
  let end = line.length;
  if (rules.stripCR && end > 0 && line[end - 1] === 0x0d) end--;
  if (end > rules.maxBufferSize) throw new TokenTooLongError(rules.maxBufferSize);
  if (rules.omitEmpty && end === 0) return null;
  return new Message(end === line.length ? line : line.subarray(0, end));
}

/** The line after the last delimiter, if any is left. */
function* lastLine(carry: Buffer, rules: LineRules): Generator<Message[]> {
  const msg = wholeLine(carry, rules);
  if (msg) yield [msg];
}

/**
 * Splits on a one-byte delimiter. The unfinished line of a chunk is kept as a list of pieces and
 * joined once its end is found, instead of joining it to the whole next chunk (a copy of every
 * chunk, ~3% of W1's time).
 */
function scanOnByte(delim: number, rules: LineRules): Scanner {
  return async function* scanLines(source: ByteSource) {
    let pieces: Buffer[] = []; // the unfinished line, from earlier chunks
    let carried = 0;
    for await (const raw of source) {
      const buf = asBuffer(raw);
      yield* scanned((out) => {
        let start = 0;
        let end = buf.indexOf(delim, 0);
        if (carried > 0 && end !== -1) {
          // The carried line ends in this chunk: join its pieces with this chunk's part once.
          pieces.push(buf.subarray(0, end));
          const line = Buffer.concat(pieces, carried + end);
          pieces = [];
          carried = 0;
          const msg = wholeLine(line, rules);
          if (msg) out.push(msg);
          start = end + 1;
          end = buf.indexOf(delim, start);
        }
        start = pushLines(out, buf, start, end, delim, rules);
        if (start < buf.length) {
          carried += buf.length - start;
          if (carried > rules.maxBufferSize) throw new TokenTooLongError(rules.maxBufferSize);
          pieces.push(buf.subarray(start));
        }
      });
    }
    if (carried > 0) yield* lastLine(Buffer.concat(pieces, carried), rules);
  };
}

export const spec = defineComponent({
  name: 'lines',
  kind: 'scanner',
  status: 'stable',
  summary: 'Splits a byte stream into one message per line.',
  description:
    'Lines end at `\\n` (a `\\r` before it is dropped) unless `custom_delimiter` is set. The final line needs no delimiter. A line longer than `max_buffer_size` fails the stream.',
  fields: [
    field.string('custom_delimiter', 'Split on this string instead of a newline.', {
      optional: true,
      examples: ['\\t', '|||'],
    }),
    field.int('max_buffer_size', 'The longest message (in bytes) the scanner accepts.', { default: 65536 }),
    field.bool('omit_empty', 'Skip empty lines instead of emitting empty messages.', { default: false }),
  ],
  examples: [
    {
      title: 'Pipe-separated records from a file',
      config: `input:
  file:
    paths: [ ./data/records.txt ]
    scanner:
      lines:
        custom_delimiter: "|"
        omit_empty: true
output:
  stdout: {}
`,
    },
  ],
  build: (config) =>
    splitLines({
      delimiter: config.custom_delimiter,
      maxBufferSize: config.max_buffer_size,
      omitEmpty: config.omit_empty,
    }),
});
