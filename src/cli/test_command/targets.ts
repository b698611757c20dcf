// Which configs have tests, from `nekton test` arguments: a file (a config or its
// `*_benthos_test.yaml` / `*_bento_test.yaml` definition), a quoted glob, `dir/...` (every YAML
// file under dir) or a plain directory (the YAML files in it), as the reference pairs them.
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, extname, join, normalize } from 'node:path';
import { errorMessage } from '../../engine/errors.js';
import { filesOfPathArgument } from '../path_arguments.js';
import { parseTestCases, type TestCase } from './definition.js';

const TEST_SUFFIXES = ['_benthos_test', '_bento_test'];
const YAML_EXTENSION = /\.ya?ml$/;

/** A config and the cases that test it; `problem` when its definition could not be read. */
export interface TestTarget {
  configPath: string;
  definitionPath: string;
  cases: TestCase[];
  problem?: string;
}

/** Every target the arguments name, sorted by config path; configs without tests are left out. */
export async function findTestTargets(args: readonly string[]): Promise<TestTarget[]> {
  const byConfig = new Map<string, TestTarget>();
  for (const file of await filesOfArguments(args)) {
    const target = await targetOf(file);
    if (target && (target.cases.length > 0 || target.problem)) byConfig.set(target.configPath, target);
  }
  return [...byConfig.values()].sort((a, b) => (a.configPath < b.configPath ? -1 : 1));
}

async function filesOfArguments(args: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const arg of args) files.push(...(await filesOfPathArgument(arg, YAML_EXTENSION)).files);
  return files;
}

/** The config and definition paths for a path naming either of them. */
export function pathPair(file: string): { configPath: string; definitionPaths: string[] } {
  const ext = extname(file);
  const stem = basename(file, ext);
  const dir = dirname(file);
  const suffix = TEST_SUFFIXES.find((s) => stem.endsWith(s));
  if (suffix) {
    return { configPath: join(dir, stem.slice(0, -suffix.length) + ext), definitionPaths: [normalize(file)] };
  }
  return {
    configPath: normalize(file),
    definitionPaths: TEST_SUFFIXES.map((s) => join(dir, stem + s + ext)),
  };
}

async function targetOf(file: string): Promise<TestTarget | undefined> {
  const { configPath, definitionPaths } = pathPair(file);
  if (!(await exists(configPath))) {
    const problem = `unable to access target config file '${configPath}': no such file`;
    return { configPath, definitionPath: definitionPaths[0]!, cases: [], problem };
  }
  let definitionPath: string | undefined;
  for (const candidate of definitionPaths) if (await exists(candidate)) definitionPath ??= candidate;
  if (!definitionPath) {
    // Without a separate definition, a YAML config may hold its own `tests:`.
    if (!YAML_EXTENSION.test(configPath)) return undefined;
    definitionPath = configPath;
  }
  try {
    const cases = parseTestCases(await readFile(definitionPath, 'utf8'), definitionPath);
    return { configPath, definitionPath, cases };
  } catch (err) {
    const problem = `failed to parse test definition from '${definitionPath}': ${errorMessage(err)}`;
    return { configPath, definitionPath, cases: [], problem };
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
