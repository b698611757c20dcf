// The register* functions: a plugin component joins the process's plugin list with the same spec
// machinery as a built-in (lint, defaults, `nekton list`, docs), and its factory's result is
// adapted to the engine. Registering after a stream was built affects only later builds.
import {
  type CallContext,
  lookupFunction,
  lookupMethod,
  type ParamSpec,
  registerFunction,
  registerMethod,
  type Value,
} from '../bloblang/library.js';
import { type AnyField, type ComponentKind, type ConfigOf, defineComponent } from '../config/spec.js';
import type { BuildContext } from '../engine/context.js';
import { addPluginSpec } from '../plugins/plugin_specs.js';
import * as adapt from './adapters.js';
import type {
  PluginBatchProcessor,
  PluginCache,
  PluginDefinition,
  PluginInput,
  PluginOutput,
  PluginProcessor,
  PluginRateLimit,
} from './plugin_shapes.js';

function register<const Fields extends readonly AnyField[], Built, Engine>(
  kind: ComponentKind,
  definition: PluginDefinition<Fields, Built>,
  toEngine: (built: Built, ctx: BuildContext) => Engine,
): void {
  const { build, status, ...rest } = definition;
  addPluginSpec(
    defineComponent({
      ...rest,
      kind,
      status: status ?? 'experimental',
      build: async (config: ConfigOf<Fields>, ctx: BuildContext) =>
        toEngine(await build(config, adapt.pluginContext(ctx)), ctx),
    }),
  );
}

export function registerInput<const Fields extends readonly AnyField[]>(
  definition: PluginDefinition<Fields, PluginInput>,
): void {
  register('input', definition, (input) => adapt.inputReader(input));
}

export function registerOutput<const Fields extends readonly AnyField[]>(
  definition: PluginDefinition<Fields, PluginOutput>,
): void {
  register('output', definition, (output) => adapt.outputWriter(output));
}

export function registerProcessor<const Fields extends readonly AnyField[]>(
  definition: PluginDefinition<Fields, PluginProcessor>,
): void {
  register('processor', definition, adapt.processor);
}

export function registerBatchProcessor<const Fields extends readonly AnyField[]>(
  definition: PluginDefinition<Fields, PluginBatchProcessor>,
): void {
  register('processor', definition, adapt.batchProcessor);
}

export function registerCache<const Fields extends readonly AnyField[]>(
  definition: PluginDefinition<Fields, PluginCache>,
): void {
  register('cache', definition, (cache) => adapt.cache(cache));
}

export function registerRateLimit<const Fields extends readonly AnyField[]>(
  definition: PluginDefinition<Fields, PluginRateLimit>,
): void {
  register('rate_limit', definition, (limit) => adapt.rateLimit(limit));
}

/** A Bloblang parameter: its type is checked and its default filled before `impl` runs. */
export type BloblangParam = ParamSpec;

export interface BloblangFunctionDefinition {
  name: string;
  params?: BloblangParam[];
  /** Reads the environment or the clock (`now()`): never folded into a constant. */
  impure?: boolean;
  /** Arguments in parameter order; throw to fail the mapping at this call. */
  impl(args: unknown[], ctx: CallContext): unknown;
}

export interface BloblangMethodDefinition {
  name: string;
  params?: BloblangParam[];
  /** `target` is the value the method is called on. */
  impl(target: unknown, args: unknown[], ctx: CallContext): unknown;
}

const BLOBLANG_NAME = /^[a-z][a-z0-9_]*$/;

function checkBloblangName(what: string, name: string, taken: boolean): void {
  if (!BLOBLANG_NAME.test(name)) throw new Error(`Bloblang ${what} name "${name}" must be snake_case`);
  if (taken) throw new Error(`Bloblang ${what} ${name} already exists: pick another name`);
}

export function registerBloblangFunction(definition: BloblangFunctionDefinition): void {
  checkBloblangName('function', definition.name, lookupFunction(definition.name) !== undefined);
  registerFunction({
    name: definition.name,
    params: definition.params ?? [],
    impure: definition.impure,
    impl: (args, ctx) => definition.impl(args, ctx) as Value,
  });
}

export function registerBloblangMethod(definition: BloblangMethodDefinition): void {
  checkBloblangName('method', definition.name, lookupMethod(definition.name) !== undefined);
  registerMethod({
    name: definition.name,
    params: definition.params ?? [],
    impl: (target, args, ctx) => definition.impl(target, args, ctx) as Value,
  });
}
