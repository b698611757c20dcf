// `nekton blobl`: runs a mapping against each line of stdin, printing one result per line like the
// reference tool. Strings and bytes print raw, other values as compact JSON, a deleted message as
// an empty line; failures go to stderr and make the exit code non-zero.
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { parseMapping } from '../bloblang/index.js';
import { Message } from '../message/message.js';

export interface BloblArgs {
  mapping?: string;
  file?: string;
}

export interface BloblIO {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export async function runBlobl(args: BloblArgs, io: BloblIO): Promise<number> {
  let text: string;
  let importDir: string | undefined;
  try {
    if (args.file) {
      text = await readFile(args.file, 'utf8');
      importDir = dirname(args.file);
    } else if (args.mapping !== undefined) {
      text = args.mapping;
    } else {
      io.stderr.write('a mapping or a mapping file is required\n');
      return 1;
    }
  } catch (e) {
    io.stderr.write(`failed to read mapping file: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }

  let mapping: ReturnType<typeof parseMapping>;
  try {
    mapping = parseMapping(text, { importDir });
  } catch (e) {
    io.stderr.write(`failed to parse mapping: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }

  let failed = false;
  const lines = createInterface({ input: io.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) {
    const msg = new Message(line);
    try {
      const out = mapping.apply([msg], 0);
      io.stdout.write(out === null ? '\n' : `${out.text()}\n`);
    } catch (e) {
      failed = true;
      io.stderr.write(`failed to execute mapping: ${e instanceof Error ? e.message : String(e)}\n`);
    }
  }
  return failed ? 1 : 0;
}
