// The Bloblang checks of a lint, run ahead of it in time slices. Compiling the mappings is most of
// the cost of linting a big config (~1.4 s of CPU for 1 MiB of mappings): done in one go it froze
// the server. The lint then runs as before and only looks the answers up, so its lints (text,
// order, lines) are exactly those of a plain lint.
import type { TimeSlicer } from '../engine/time_slicer.js';
import type { BloblangChecker, BloblangSyntaxProblem } from './bloblang_check.js';

type Answers = Map<string, BloblangSyntaxProblem | undefined>;

/**
 * Runs `lint` once with a checker that only records what it is asked, checks those texts with
 * `base` (pausing between them), and returns a checker that answers from the results.
 */
export async function precheckBloblang(
  lint: (checker: BloblangChecker) => unknown,
  base: BloblangChecker,
  slicer: TimeSlicer,
): Promise<BloblangChecker> {
  const mappings = new Set<string>();
  const interpolations = new Set<string>();
  lint({
    checkMapping: (text) => void mappings.add(text),
    checkInterpolation: (text) => void interpolations.add(text),
  });
  const mappingAnswers: Answers = new Map();
  const interpolationAnswers: Answers = new Map();
  for (const text of mappings) {
    await slicer.pause();
    mappingAnswers.set(text, base.checkMapping(text));
  }
  for (const text of interpolations) {
    await slicer.pause();
    interpolationAnswers.set(text, base.checkInterpolation(text));
  }
  return {
    checkMapping: (text) => (mappingAnswers.has(text) ? mappingAnswers.get(text) : base.checkMapping(text)),
    checkInterpolation: (text) =>
      interpolationAnswers.has(text) ? interpolationAnswers.get(text) : base.checkInterpolation(text),
  };
}
