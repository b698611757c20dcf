// Config problems at known positions of the text (YAML syntax, values of the wrong type). From
// a file they read as lints do, `FILE(line,col) message`, so one format covers every problem a
// file can have; from a request body (no file) as `line N: message`.
import { ConfigError } from '../engine/errors.js';
import { formatFileLint, type Lint } from './lint.js';

export class PositionedConfigError extends ConfigError {
  /** In document order; the message has one line per problem. */
  readonly problems: readonly Lint[];

  constructor(problems: readonly Lint[], file?: string) {
    const first = problems[0]!;
    super(problems.map((p) => describe(p, file)).join('\n'), first.line, first.column, file);
    this.problems = problems;
  }

  /** The same problems, now known to come from `file`. */
  inFile(file: string): PositionedConfigError {
    return new PositionedConfigError(this.problems, file);
  }
}

/** The error for one problem, for the caller to throw. */
export function configErrorAt(line: number, column: number, message: string, file?: string) {
  return new PositionedConfigError([{ line, column, message }], file);
}

function describe(problem: Lint, file: string | undefined): string {
  return file ? formatFileLint(file, problem) : `line ${problem.line}: ${problem.message}`;
}
