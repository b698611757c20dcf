// Problems found while normalising a config, at their positions in the text: thrown at once, or
// (under normaliseAll, for config files) collected so one run reports them all, as lint does.
import { ConfigError } from '../engine/errors.js';
import type { Lint } from './lint.js';
import type { NormaliseContext } from './normalise.js';
import { PositionedConfigError } from './positioned_error.js';
import { pathKey, type TextPosition } from './yaml_document.js';

/**
 * Runs a conversion that reports every value of the wrong type (or missing) in one error, as
 * lint does, instead of stopping at the first. A value it cannot walk past (a component of no
 * known type, say) still stops it, and the error holds the problems found until then.
 */
export function normaliseAll<T>(ctx: NormaliseContext, convert: (ctx: NormaliseContext) => T): T {
  const problems: Lint[] = [];
  const result = convert({ ...ctx, problems });
  if (problems.length > 0) throw new PositionedConfigError(inDocumentOrder(problems));
  return result;
}

/** Throws the problem at `docPath`, with any collected before it. */
export function failAt(ctx: NormaliseContext, docPath: readonly (string | number)[], message: string): never {
  const at = positionAt(ctx, docPath);
  if (at === undefined) throw new ConfigError(message);
  const problem = lintAtPosition(at, message);
  throw new PositionedConfigError(inDocumentOrder([...(ctx.problems ?? []), problem]));
}

/** A problem the walk can step over: collected (the value becomes `fallback`) or else thrown. */
export function problemAt<T>(
  ctx: NormaliseContext,
  docPath: readonly (string | number)[],
  message: string,
  fallback: T,
): T {
  const at = ctx.problems && positionAt(ctx, docPath);
  if (!at) return failAt(ctx, docPath, message);
  ctx.problems!.push(lintAtPosition(at, message));
  return fallback;
}

/** A problem at `at`; one in a `--set` value names the `--set`. */
function lintAtPosition(at: TextPosition, message: string): Lint {
  const problem: Lint = { line: at.line, column: at.col, message };
  if (at.origin) problem.origin = at.origin;
  return problem;
}

function positionAt(ctx: NormaliseContext, docPath: readonly (string | number)[]): TextPosition | undefined {
  if (!ctx.lines) return undefined;
  for (let n = docPath.length; n >= 0; n--) {
    const at = ctx.lines.get(pathKey(docPath.slice(0, n)));
    if (at !== undefined) return at;
  }
  return undefined;
}

function inDocumentOrder(problems: Lint[]): Lint[] {
  return problems.sort((a, b) => a.line - b.line || a.column - b.column);
}
