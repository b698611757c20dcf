// `nekton test [PATH...]`: runs config unit tests; exit 1 when any fails or none were found.
import { loadEnvFiles } from '../../config/env_file.js';
import { errorMessage } from '../../engine/errors.js';
import { createLogger } from '../../engine/logger.js';
import type { Registry } from '../../engine/registry.js';
import { templatesRegistry } from '../../templates/templates_registry.js';
import { exitQuietlyWhenStdoutCloses } from '../closed_stdout.js';
import { resolveResourceFiles } from '../resource_files.js';
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
  let registry: Registry | undefined;
  try {
    registry = await templatesRegistry(options.templates ?? [], false);
  } catch (err) {
    process.stderr.write(`${errorMessage(err)}\n`);
    return 1;
  }
  const logger = createLogger({ level: options.log ?? 'off' }, process.stdout);
  const summary = await runAllTests({
    paths: options.paths,
    resourceFiles,
    logger,
    verbose: options.verbose,
    out: process.stdout,
    style: styleFor(process.stdout),
    registry,
  });
  return summary.ok ? 0 : 1;
}
