// A lint: where in the config text something is wrong, and the reference's message for it.

import { scrubSecretText } from './secret_text.js';

export interface Lint {
  line: number;
  /**
   * Lints report column 1, as the reference does (the HTTP API's lint bodies are matched
   * exactly, spec §2.5). Syntax and value errors in this shape carry the real column.
   */
  column: number;
  message: string;
  /** `--set a.b=c` when the problem is in a value given on the command line, not in the text. */
  origin?: string;
}

export function lintAt(line: number, message: string): Lint {
  return { line, column: 1, message };
}

/** `(3,1) field nope not recognised`, as the HTTP API reports lints. */
export function formatApiLint(lint: Lint): string {
  // A lint may quote the offending value, and that value may hold a password.
  if (lint.origin) return `(${scrubSecretText(lint.origin)}) ${scrubSecretText(lint.message)}`;
  return `(${lint.line},${lint.column}) ${scrubSecretText(lint.message)}`;
}

/** `config.yaml(3,1) field nope not recognised`, as file lints read. */
export function formatFileLint(path: string, lint: Lint): string {
  return `${path}${formatApiLint(lint)}`;
}
