// Runs `nekton test` in-process over some paths and keeps what it printed.
import { Writable } from 'node:stream';
import { type RunSummary, runAllTests } from '../../../src/cli/test_command/run_all.js';
import { PLAIN } from '../../../src/cli/test_command/style.js';
import { createLogger } from '../../../src/engine/logger.js';

export interface CapturedRun {
  summary: RunSummary;
  output: string;
}

export async function runTests(
  paths: string[],
  options: { resourceFiles?: string[] } = {},
): Promise<CapturedRun> {
  let output = '';
  const out = new Writable({
    write(chunk, _enc, done) {
      output += String(chunk);
      done();
    },
  });
  const summary = await runAllTests({
    paths,
    resourceFiles: options.resourceFiles ?? [],
    logger: createLogger({ level: 'off' }),
    verbose: false,
    out,
    style: PLAIN,
  });
  return { summary, output };
}
