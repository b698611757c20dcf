// `nekton test [PATH...]`: runs config unit tests; exit 1 when any fails or none were found.
import { loadEnvFiles } from '../../config/env_file.js';
import { errorMessage } from '../../engine/errors.js';
import { createLogger } from '../../engine/logger.js';
import { resolveResourceFiles } from '../../service/resource_files.js';
import { type LoadedTemplates, loadTemplates, templateLintProblems } from '../../templates/load_templates.js';
import { exitQuietlyWhenStdoutCloses } from '../closed_stdout.js';
import { runAllTests } from './run_all.js';
import { styleFor } from './style.js';

export interface TestCommandOptions {
  paths: string[];
  /** `--log LEVEL`: components log at that level to stdout; silent otherwise. */
  log?: string;
  verbose: boolean;
  resources: string[];
  sets: string[];
  /** `-e` dotenv files: loaded into the environment before any test runs. */
  envFiles: string[];
  /** `-t` template globs: their components can be used by the configs under test. */
  templates?: string[];
}

export async function runTestCommand(options: TestCommandOptions): Promise<number> {
  exitQuietlyWhenStdoutCloses();
  if (options.sets.length > 0) {
    process.stderr.write('cannot override fields with --set (-s) during unit tests\n');
    return 1;
  }
  try {
    Object.assign(process.env, await loadEnvFiles(options.envFiles));
  } catch (err) {
    process.stderr.write(`${errorMessage(err)}\n`);
    return 1;
  }
  let resourceFiles: string[];
  try {
    resourceFiles = await resolveResourceFiles(options.resources);
  } catch (err) {
    process.stderr.write(`failed to resolve resource glob pattern: ${(err as Error).message}\n`);
    return 1;
  }
  let templates: LoadedTemplates;
  try {
    templates = await loadTemplates(options.templates ?? []);
  } catch (err) {
    process.stderr.write(`${errorMessage(err)}\n`);
    return 1;
  }
  // `-t` templates are checked as `template lint` checks them; their problems fail the run.
  const templateProblems = templateLintProblems(templates);
  if (templateProblems.length > 0) process.stderr.write(`${templateProblems.join('\n')}\n`);
  const logger = createLogger({ level: options.log ?? 'off' }, process.stdout);
  const summary = await runAllTests({
    paths: options.paths,
    resourceFiles,
    logger,
    verbose: options.verbose,
    out: process.stdout,
    style: styleFor(process.stdout),
    registry: templates.registry,
  });
  return summary.ok && templateProblems.length === 0 ? 0 : 1;
}
