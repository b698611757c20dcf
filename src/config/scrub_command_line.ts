// The process command line as the debug endpoints show it: `--set path=value` values can be
// credentials (`-s output.redis.url=redis://u:p@host`), so every one is hidden, and any other
// argument goes through the text scrubber (a URL with a password given as a path, say).
import { SCRUBBED, scrubSecretText } from './secret_text.js';

const SET_FLAGS = new Set(['--set', '-s']);

function withoutValue(assignment: string): string {
  const eq = assignment.indexOf('=');
  return eq < 0 ? assignment : `${assignment.slice(0, eq + 1)}${SCRUBBED}`;
}

export function scrubCommandLine(args: readonly string[]): string[] {
  return args.map((arg, i) => {
    if (i > 0 && SET_FLAGS.has(args[i - 1] ?? '')) return withoutValue(arg);
    const inline = /^(--set=|-s=?)(.+)$/.exec(arg);
    if (inline && !arg.startsWith('--set-')) return `${inline[1]}${withoutValue(inline[2] ?? '')}`;
    return scrubSecretText(arg);
  });
}

/** A diagnostic report's `header` with its `commandLine` scrubbed. */
export function scrubReportHeader(header: unknown): unknown {
  if (typeof header !== 'object' || header === null) return header;
  const source = header as Record<string, unknown>;
  const commandLine = source.commandLine;
  if (!Array.isArray(commandLine)) return header;
  return { ...source, commandLine: scrubCommandLine(commandLine.map(String)) };
}
