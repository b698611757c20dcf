// How the linter checks a regular expression field: compiled with the engine that will run it.
import { patternProblem } from '../regexp/index.js';

export function regexpProblem(text: string): { message: string; line: number } | undefined {
  const message = patternProblem(text);
  return message === undefined ? undefined : { message, line: 1 };
}
