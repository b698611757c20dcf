// Runs one test case: builds its processors, feeds its input batches through them and checks
// every output message against the conditions written for it. Returns the failures (none = pass).
import { errorMessage } from '../../engine/errors.js';
import type { Batch } from '../../message/message.js';
import { buildConditions } from './conditions.js';
import type { TestCase } from './definition.js';
import { withEnvironment } from './environment.js';
import { executeAll } from './execute_all.js';
import { inputBatches } from './input_messages.js';
import { type ProviderOptions, provideProcessors } from './processors_provider.js';
import type { Style } from './style.js';

export interface CaseFailure {
  name: string;
  line: number;
  reason: string;
}

export interface CaseResult {
  testCase: TestCase;
  failures: CaseFailure[];
}

export interface CaseRunOptions extends ProviderOptions {
  /** Directory of the definition file: input and comparison files are relative to it. */
  definitionDir: string;
  style: Style;
}

export async function runCase(testCase: TestCase, options: CaseRunOptions): Promise<CaseResult> {
  const reasons: string[] = [];
  try {
    await withEnvironment(testCase.environment, () => execute(testCase, options, reasons));
  } catch (err) {
    // A case that cannot even start (a missing component, a bad pointer) fails on its own.
    reasons.push(errorMessage(err));
  }
  const failures = reasons.map((reason) => ({ name: testCase.name, line: testCase.line, reason }));
  return { testCase, failures };
}

async function execute(testCase: TestCase, options: CaseRunOptions, reasons: string[]): Promise<void> {
  const { style, definitionDir } = options;
  const expectedBatches = testCase.outputBatches.map((batch) =>
    batch.map((spec, i) => {
      try {
        return buildConditions(spec, definitionDir, style);
      } catch (err) {
        throw new Error(`output condition of message ${i}: ${errorMessage(err)}`);
      }
    }),
  );
  const inputs = await inputBatches(testCase.inputBatches, definitionDir);
  const target = await provideProcessors(testCase, options);
  let outputs: Batch[];
  try {
    outputs = await executeAll(target.processors, inputs);
  } finally {
    await target.close();
  }

  if (outputs.length < expectedBatches.length) {
    reasons.push(`wrong batch count, expected ${expectedBatches.length}, got ${outputs.length}`);
  }
  outputs.forEach((batch, b) => {
    const expected = expectedBatches[b];
    if (!expected) {
      reasons.push(`unexpected batch: ${JSON.stringify(batch.map((m) => m.text()))}`);
      return;
    }
    if (expected.length !== batch.length) {
      reasons.push(
        `mismatch of output batch ${b} message counts, expected ${expected.length}, got ${batch.length}`,
      );
    }
    batch.forEach((msg, i) => {
      const conditions = expected[i];
      if (!conditions) {
        reasons.push(`unexpected message from batch ${b}: ${msg.text()}`);
        return;
      }
      let failed = false;
      for (const condition of conditions) {
        const why = condition.check(msg);
        if (why === undefined) continue;
        failed = true;
        reasons.push(`batch ${b} message ${i}: ${condition.name}: ${why}`);
      }
      // The processing error usually explains a failed condition.
      if (failed && msg.error) reasons.push(`batch ${b} message ${i}: ${style.red(msg.error.message)}`);
    });
  });
}
