// Builds what a test case runs: the processors at its `target_processors` (a JSON pointer, a
// `file.yaml#/pointer`, or a resource label) with mocks swapped in and the config's cache,
// rate limit and processor resources built fresh for the case; or its `target_mapping` file.
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { Logger } from 'pino';
import { parseMapping } from '../../bloblang/index.js';
import { inSource } from '../../config/config_source.js';
import { isPlainObject, normaliseComponent } from '../../config/normalise.js';
import { PositionedConfigError } from '../../config/positioned_error.js';
import { type SchemaProvider, schemaProvider } from '../../config/schema.js';
import { type ResourcesConfig, toServiceConfig } from '../../config/service_config.js';
import { normaliseAll } from '../../config/value_problems.js';
import { ComponentBuilder, type EngineEnv } from '../../engine/builder.js';
import type { Processor } from '../../engine/component.js';
import type { ComponentConfig } from '../../engine/context.js';
import { errorMessage, STOPPED } from '../../engine/errors.js';
import { MemoryInprocBus } from '../../engine/inproc.js';
import { noopMetrics } from '../../engine/noop_metrics.js';
import { perMessage } from '../../engine/processor_helpers.js';
import type { Registry } from '../../engine/registry.js';
import { ResourceManager } from '../../engine/resources.js';
import { processRegistry } from '../../plugins/process_registry.js';
import { buildResources } from '../../service/build_resources.js';
import { readConfigTree } from './config_text.js';
import { labelledPaths, parsePointer, type TreePath, valueAt } from './config_tree.js';
import type { TestCase } from './definition.js';
import { applyMocks } from './mocks.js';

export interface CaseProcessors {
  processors: Processor[];
  close(): Promise<void>;
}

export interface ProviderOptions {
  /** The config under test; relative targets and mappings resolve against its directory. */
  configPath: string;
  /** `-r` files whose resources join the config's. */
  resourceFiles: readonly string[];
  logger: Logger;
  /** The built-ins plus `-t` templates; absent means the built-ins. */
  registry?: Registry;
}

const providers = new WeakMap<Registry, SchemaProvider>();
function schemasOf(registry: Registry): SchemaProvider {
  let provider = providers.get(registry);
  if (!provider) {
    provider = schemaProvider(registry);
    providers.set(registry, provider);
  }
  return provider;
}

export async function provideProcessors(
  testCase: TestCase,
  options: ProviderOptions,
): Promise<CaseProcessors> {
  if (testCase.targetMapping !== '') {
    try {
      return await mappingTarget(testCase.targetMapping, options);
    } catch (err) {
      throw new Error(
        `failed to initialise Bloblang mapping '${testCase.targetMapping}': ${errorMessage(err)}`,
      );
    }
  }
  try {
    return await processorsTarget(testCase, options);
  } catch (err) {
    throw new Error(`failed to initialise processors '${testCase.targetProcessors}': ${errorMessage(err)}`);
  }
}

async function mappingTarget(file: string, options: ProviderOptions): Promise<CaseProcessors> {
  const path = isAbsolute(file) ? file : join(dirname(options.configPath), file);
  const mapping = parseMapping(await readFile(path, 'utf8'), { importDir: dirname(resolve(path)) });
  const log = options.logger;
  const processor: Processor = {
    process: perMessage((_msg, batch, i) => mapping.apply(batch, i), {
      onError: (err) => log.error(err.message),
    }),
    close: async () => {},
  };
  return { processors: [processor], close: async () => {} };
}

/** `other.yaml#/pipeline/processors` targets another file (relative to the config's directory). */
function splitTarget(target: string, configPath: string): { file: string; pointer: string } {
  const hash = target.indexOf('#');
  if (hash === -1) return { file: configPath, pointer: target };
  const file = target.slice(0, hash);
  const pointer = target.slice(hash + 1);
  if (pointer === '') throw new Error('reference URI must contain a path or fragment');
  return {
    file: file === '' ? configPath : isAbsolute(file) ? file : join(dirname(configPath), file),
    pointer,
  };
}

async function processorsTarget(testCase: TestCase, options: ProviderOptions): Promise<CaseProcessors> {
  const { file, pointer } = splitTarget(testCase.targetProcessors, options.configPath);
  const tree = await readConfigTree(file, testCase.environment);
  const root = tree.value ?? {};
  applyMocks(root, testCase.mocks);
  const targetPath = targetPathOf(root, pointer);
  let target: unknown;
  try {
    target = valueAt(root, targetPath);
  } catch (err) {
    throw new Error(`failed to resolve case processors from '${file}': ${errorMessage(err)}`);
  }
  const registry = options.registry ?? processRegistry();
  const ctx = { provider: schemasOf(registry), lines: tree.lines };
  const { resources: resourcesConfig, processors: processorConfigs } = inFile(file, () =>
    normaliseAll(ctx, (c) => ({
      resources: resourceSections(root, c),
      processors: processorsAt(target, targetPath, c),
    })),
  );
  const abort = new AbortController();
  const resources = new ResourceManager();
  const env: EngineEnv = {
    registry,
    logger: options.logger,
    metrics: noopMetrics,
    resources,
    inproc: new MemoryInprocBus(),
    signal: abort.signal,
    baseDir: dirname(resolve(file)),
  };
  const built: Processor[] = [];
  const close = async () => {
    abort.abort(STOPPED);
    for (const p of built) await p.close().catch(() => {});
    await resources.closeAll().catch(() => {});
  };
  const source = { file, lines: tree.lines };
  try {
    await inSource(source, () => buildResources(resourcesConfig, new ComponentBuilder(env), resources));
    for (const extra of options.resourceFiles) {
      await buildResources(
        await resourceFile(extra, testCase.environment, ctx.provider),
        new ComponentBuilder(env),
        resources,
      );
    }
    const builder = new ComponentBuilder(env);
    for (const cc of processorConfigs) built.push(await inSource(source, () => builder.buildProcessor(cc)));
  } catch (err) {
    await close();
    throw err;
  }
  return { processors: built, close };
}

function targetPathOf(root: unknown, pointer: string): TreePath {
  if (pointer.startsWith('/')) return parsePointer(pointer);
  const path = labelledPaths(root).get(pointer);
  if (!path) {
    throw new Error(
      `target for label '${pointer}' failed as the label was not found in the test target file, it is not currently possible to target resources imported separate to the test file`,
    );
  }
  return path;
}

/** The processors at `path`: a list of processors, or one processor as a list of one. */
function processorsAt(
  value: unknown,
  path: TreePath,
  ctx: Parameters<typeof normaliseComponent>[3],
): ComponentConfig[] {
  const at = (p: TreePath) => ({
    docPath: p.map((s) => (/^\d+$/.test(s) ? Number(s) : s)),
    configPath: ['root', ...p].join('.'),
  });
  if (Array.isArray(value)) {
    return value.map((item, i) => normaliseComponent('processor', item, at([...path, String(i)]), ctx));
  }
  return [normaliseComponent('processor', value, at(path), ctx)];
}

/** Caches, rate limits and processors of the config; inputs and outputs are never used by a test. */
function resourceSections(root: unknown, ctx: Parameters<typeof toServiceConfig>[1]): ResourcesConfig {
  const source = isPlainObject(root) ? root : {};
  const subset = {
    cache_resources: source.cache_resources,
    processor_resources: source.processor_resources,
    rate_limit_resources: source.rate_limit_resources,
  };
  const config = toServiceConfig(subset, ctx, { withStreamSections: false });
  return { ...config, input_resources: [], output_resources: [] };
}

async function resourceFile(
  path: string,
  environment: Record<string, string> | undefined,
  provider: SchemaProvider,
): Promise<ResourcesConfig> {
  const tree = await readConfigTree(path, environment);
  return inFile(path, () =>
    normaliseAll({ provider, lines: tree.lines }, (c) => resourceSections(tree.value, c)),
  );
}

function inFile<T>(file: string, work: () => T): T {
  try {
    return work();
  } catch (err) {
    if (err instanceof PositionedConfigError) throw new Error(err.inFile(file).message);
    throw err;
  }
}
