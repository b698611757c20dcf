// Runs the tests of every target the paths name, printing `Test '<config>' succeeded|failed` per
// target and then every failure, as the reference's `test` command does. A target that cannot be
// read or built fails on its own; the run always goes on to the next one.

import { dirname } from 'node:path';
import type { Logger } from 'pino';
import { errorMessage } from '../../engine/errors.js';
import type { Registry } from '../../engine/registry.js';
import { lintTarget } from './lint_target.js';
import { writeFailures } from './report.js';
import { type CaseResult, runCase } from './run_case.js';
import type { Style } from './style.js';
import { findTestTargets, type TestTarget } from './targets.js';

export interface RunOptions {
  paths: readonly string[];
  resourceFiles: readonly string[];
  logger: Logger;
  verbose: boolean;
  out: NodeJS.WritableStream;
  style: Style;
  /** The built-ins plus `-t` templates; absent means the built-ins. */
  registry?: Registry;
}

export interface TargetResult {
  target: TestTarget;
  lints: string[];
  cases: CaseResult[];
  /** Why the target could not run at all (its definition or config could not be read). */
  problem?: string;
}

export interface RunSummary {
  /** True when tests were found and every one passed. */
  ok: boolean;
  targets: TargetResult[];
}

export function targetFailed(result: TargetResult): boolean {
  return (
    result.problem !== undefined || result.lints.length > 0 || result.cases.some((c) => c.failures.length > 0)
  );
}

export async function runAllTests(options: RunOptions): Promise<RunSummary> {
  const { out, style } = options;
  let targets: TestTarget[];
  try {
    targets = await findTestTargets(options.paths);
  } catch (err) {
    out.write(`Failed to obtain test targets: ${errorMessage(err)}\n`);
    return { ok: false, targets: [] };
  }
  if (targets.length === 0) {
    out.write(`${style.yellow('No tests were found')}\n`);
    return { ok: false, targets: [] };
  }
  const results: TargetResult[] = [];
  for (const target of targets) {
    const result = await runTarget(target, options);
    results.push(result);
    const verdict = targetFailed(result) ? style.red('failed') : style.green('succeeded');
    out.write(`Test '${target.configPath}' ${verdict}\n`);
  }
  const failed = results.filter(targetFailed);
  if (failed.length > 0) writeFailures(out, failed);
  return { ok: failed.length === 0, targets: results };
}

async function runTarget(target: TestTarget, options: RunOptions): Promise<TargetResult> {
  if (target.problem) return { target, lints: [], cases: [], problem: target.problem };
  const lints = await lintTarget(target.configPath, options.registry);
  const cases: CaseResult[] = [];
  for (const testCase of target.cases) {
    if (options.verbose) options.out.write(`  - ${testCase.name || '(unnamed)'}\n`);
    cases.push(
      await runCase(testCase, {
        configPath: target.configPath,
        definitionDir: dirname(target.definitionPath),
        resourceFiles: options.resourceFiles,
        logger: options.logger,
        style: options.style,
        registry: options.registry,
      }),
    );
  }
  return { target, lints, cases };
}
