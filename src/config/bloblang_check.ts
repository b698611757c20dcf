// How the linter checks Bloblang and `${! }` fields: parse only, never run. Injectable so config
// checks can be tested without depending on the Bloblang implementation.
import { BloblangParseError, parseInterpolation, parseMapping } from '../bloblang/index.js';

export interface BloblangSyntaxProblem {
  message: string;
  /** 1-based line within the checked text. */
  line: number;
}

export interface BloblangChecker {
  /** Returns the parse problem of a mapping, or undefined when it parses. */
  checkMapping(text: string): BloblangSyntaxProblem | undefined;
  checkInterpolation(text: string): BloblangSyntaxProblem | undefined;
}

function problemOf(err: unknown): BloblangSyntaxProblem {
  if (err instanceof BloblangParseError) return { message: err.message, line: err.line };
  return { message: err instanceof Error ? err.message : String(err), line: 1 };
}

export const bloblangChecker: BloblangChecker = {
  checkMapping(text) {
    try {
      parseMapping(text);
      return undefined;
    } catch (err) {
      return problemOf(err);
    }
  },
  checkInterpolation(text) {
    try {
      parseInterpolation(text);
      return undefined;
    } catch (err) {
      return problemOf(err);
    }
  },
};
