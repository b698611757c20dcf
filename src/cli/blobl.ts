// `nekton blobl`: runs a mapping against each line of stdin (or `--input`), printing one result per
// line like the reference tool. Strings and bytes print raw, other values as compact JSON (indented
// with `--pretty`), a deleted message as an empty line; failures go to stderr and make the exit
// code non-zero.
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseMapping } from '../bloblang/index.js';
import { envLookup, interpolateEnv, missingEnvMessage } from '../config/env_interpolation.js';
import { errorMessage } from '../engine/errors.js';
import { Message } from '../message/message.js';
import { DEFAULT_MAX_TOKEN_LENGTH, LineTooLongError, readLines } from './blobl_lines.js';
import { formatBloblResult } from './blobl_output.js';

export interface BloblArgs {
  mapping?: string;
  file?: string;
  /** `--input`: read documents from this file instead of stdin. */
  input?: string;
  /** `--raw`: `this` is each line as a string, never parsed as JSON. */
  raw?: boolean;
  /** `--pretty`: structured results as indented JSON. */
  pretty?: boolean;
  /** `--max-token-length`: the longest line accepted, in bytes (the reference's bufio limit). */
  maxTokenLength?: number;
  /** Looks up `${VAR}` references in the mapping text; defaults to process.env. */
  env?: Readonly<Record<string, string | undefined>>;
}

export interface BloblIO {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export async function runBlobl(args: BloblArgs, io: BloblIO): Promise<number> {
  const text = await mappingText(args, io);
  if (text === undefined) return 1;

  let mapping: ReturnType<typeof parseMapping>;
  try {
    mapping = parseMapping(text, { importDir: args.file ? dirname(args.file) : undefined });
  } catch (e) {
    io.stderr.write(`failed to parse mapping: ${errorMessage(e)}\n`);
    return 1;
  }

  let failed = false;
  const source = args.input ? createReadStream(args.input) : io.stdin;
  try {
    for await (const line of readLines(source, args.maxTokenLength ?? DEFAULT_MAX_TOKEN_LENGTH)) {
      const msg = args.raw ? Message.fromStructured(line) : new Message(line);
      try {
        io.stdout.write(`${formatBloblResult(mapping.apply([msg], 0), args.pretty ?? false)}\n`);
      } catch (e) {
        failed = true;
        io.stderr.write(`failed to execute mapping: ${errorMessage(e)}\n`);
      }
    }
  } catch (e) {
    const what = e instanceof LineTooLongError ? e.message : `failed to read input: ${errorMessage(e)}`;
    io.stderr.write(`${what}\n`);
    return 1;
  }
  return failed ? 1 : 0;
}

/** The mapping from the argument or `--file`, with `${VAR}` references replaced as the reference does. */
async function mappingText(args: BloblArgs, io: BloblIO): Promise<string | undefined> {
  let text: string;
  if (args.file) {
    if (args.mapping !== undefined) {
      io.stderr.write('invalid flags, unable to execute both a file mapping and an inline mapping\n');
      return undefined;
    }
    try {
      text = await readFile(args.file, 'utf8');
    } catch (e) {
      io.stderr.write(`failed to read mapping file: ${errorMessage(e)}\n`);
      return undefined;
    }
  } else if (args.mapping !== undefined) {
    text = args.mapping;
  } else {
    io.stderr.write('a mapping or a mapping file is required\n');
    return undefined;
  }
  const replaced = interpolateEnv(text, envLookup(args.env ?? process.env));
  const problems = [
    ...replaced.errors,
    ...(replaced.missing.length ? [missingEnvMessage(replaced.missing)] : []),
  ];
  if (problems.length > 0) {
    io.stderr.write(`failed to replace env vars: ${problems.join('; ')}\n`);
    return undefined;
  }
  return replaced.text;
}
