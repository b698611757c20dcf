// A lint whose Bloblang checks run in time slices. Compiling the mappings is most of the cost of
// linting a big config (~1.4 s of CPU for 1 MiB of mappings): done in one go it froze the server.
// The lint walks the config once recording the texts it would check (answering "no problem"),
// then the texts are checked with pauses between them. When all pass, that first walk's lints
// are the lints; otherwise the lint runs again looking the answers up. Either way its lints
// (text, order, lines) are exactly those of a plain lint.
import type { TimeSlicer } from '../engine/time_slicer.js';
import type { BloblangChecker, BloblangSyntaxProblem } from './bloblang_check.js';

type Answers = Map<string, BloblangSyntaxProblem | undefined>;

export async function lintInSlices<T>(
  lint: (checker: BloblangChecker) => T,
  base: BloblangChecker,
  slicer: TimeSlicer,
): Promise<T> {
  const mappings = new Set<string>();
  const interpolations = new Set<string>();
  const firstWalk = lint({
    checkMapping: (text) => void mappings.add(text),
    checkInterpolation: (text) => void interpolations.add(text),
  });
  const mappingAnswers = await answer(mappings, (text) => base.checkMapping(text), slicer);
  const interpolationAnswers = await answer(interpolations, (text) => base.checkInterpolation(text), slicer);
  const clean = (answers: Answers) => [...answers.values()].every((problem) => problem === undefined);
  if (clean(mappingAnswers) && clean(interpolationAnswers)) return firstWalk;
  await slicer.pause();
  return lint({
    checkMapping: (text) => (mappingAnswers.has(text) ? mappingAnswers.get(text) : base.checkMapping(text)),
    checkInterpolation: (text) =>
      interpolationAnswers.has(text) ? interpolationAnswers.get(text) : base.checkInterpolation(text),
  });
}

async function answer(
  texts: Set<string>,
  check: (text: string) => BloblangSyntaxProblem | undefined,
  slicer: TimeSlicer,
): Promise<Answers> {
  const answers: Answers = new Map();
  for (const text of texts) {
    await slicer.pause();
    answers.set(text, check(text));
  }
  return answers;
}
