// The lines of `nekton blobl`'s input, as Go's bufio.Scanner gives them to the reference: split at
// `\n`, a trailing `\r` dropped, and a line that does not fit in `--max-token-length` bytes (its
// newline included) is an error rather than a line held in memory whatever its size.

/** bufio.MaxScanTokenSize, the reference's default. */
export const DEFAULT_MAX_TOKEN_LENGTH = 64 * 1024;

export class LineTooLongError extends Error {
  constructor(maxTokenLength: number) {
    super(`failed to read input: a line is longer than --max-token-length (${maxTokenLength} bytes)`);
  }
}

export async function* readLines(
  source: AsyncIterable<unknown>,
  maxTokenLength: number,
): AsyncGenerator<string> {
  let pending: Buffer = Buffer.alloc(0);
  for await (const chunk of source) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    pending = pending.length === 0 ? bytes : Buffer.concat([pending, bytes]);
    let start = 0;
    for (let nl = pending.indexOf(10, start); nl !== -1; nl = pending.indexOf(10, start)) {
      if (nl - start + 1 > maxTokenLength) throw new LineTooLongError(maxTokenLength);
      yield lineText(pending.subarray(start, nl));
      start = nl + 1;
    }
    pending = pending.subarray(start);
    if (pending.length >= maxTokenLength) throw new LineTooLongError(maxTokenLength);
  }
  if (pending.length > 0) yield lineText(pending);
}

function lineText(line: Buffer): string {
  const end = line.length > 0 && line[line.length - 1] === 13 ? line.length - 1 : line.length;
  return line.toString('utf8', 0, end);
}
