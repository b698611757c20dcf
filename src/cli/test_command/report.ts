// The `Failures:` section: per failed target its lints, then per failed case its name and line,
// the input it was given, and each failed condition (with a diff where one helps).
import type { InputMessageSpec } from './definition.js';
import type { TargetResult } from './run_all.js';

const MAX_SHOWN = 300;

export function writeFailures(out: NodeJS.WritableStream, failed: TargetResult[]): void {
  const lines: string[] = ['', 'Failures:', ''];
  failed.forEach((result, t) => {
    if (t > 0) lines.push('');
    lines.push(`--- ${result.target.configPath} ---`, '');
    if (result.problem) lines.push(`Error: ${result.problem}`);
    for (const lint of result.lints) lines.push(`Lint: ${lint}`);
    const failedCases = result.cases.filter((c) => c.failures.length > 0);
    if (failedCases.length > 0 && (result.lints.length > 0 || result.problem)) lines.push('');
    failedCases.forEach((c, i) => {
      if (i > 0) lines.push('');
      lines.push(`${c.testCase.name || '(unnamed)'} [line ${c.testCase.line}]:`);
      lines.push(...describeInput(c.testCase.inputBatches));
      for (const failure of c.failures) lines.push(failure.reason);
    });
  });
  out.write(`${lines.join('\n')}\n`);
}

function describeInput(batches: InputMessageSpec[][]): string[] {
  if (batches.length === 0) return ['input: (none)'];
  return batches.flatMap((batch, b) =>
    batch.map((spec, i) => {
      const content = spec.file ? `file ${spec.file}` : JSON.stringify(shorten(spec.content));
      const meta = Object.keys(spec.metadata).length > 0 ? ` metadata ${JSON.stringify(spec.metadata)}` : '';
      return `input batch ${b} message ${i}: ${content}${meta}`;
    }),
  );
}

function shorten(text: string): string {
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}...` : text;
}
