// Declaring a component from its typed fields: the config its factory receives is parsed by
// those fields. Re-exported from spec.ts, where the field and spec types live.
import type { BuildContext } from '../engine/context.js';
import type {
  AnyField,
  ComponentSpec,
  ConfigOf,
  FieldParseContext,
  ParsedOf,
  RawConfigOf,
  RawOf,
} from './spec.js';

/** `a.b` for a nested field's name in errors; a root value (empty name) adds nothing. */
export function joinPath(prefix: string, name: string): string {
  if (prefix === '') return name;
  return name === '' ? prefix : `${prefix}.${name}`;
}

/**
 * The config a factory receives: each field's parser applied to the written value (defaults
 * already filled in). Fields without a parser pass through; unknown keys are kept.
 */
export function parseFields(
  fields: readonly AnyField[],
  raw: unknown,
  ctx: FieldParseContext,
  prefix = '',
): // biome-ignore lint/suspicious/noExplicitAny: typed by the caller through ConfigOf
any {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const source = raw as Record<string, unknown>;
  const out: Record<string, unknown> = { ...source };
  for (const spec of fields) {
    if (!spec.parse) continue;
    const path = joinPath(prefix, spec.name);
    out[spec.name] = spec.parse(source[spec.name], ctx, path);
  }
  return out;
}

/** A component declared with typed fields: what `defineComponent` takes. */
export interface ComponentDefinition<Fields extends readonly AnyField[], Built>
  extends Omit<ComponentSpec<RawConfigOf<Fields>, Built>, 'fields' | 'root' | 'build'> {
  fields: Fields;
  /** Receives the config parsed by its fields: durations in ms, interpolations compiled... */
  build(config: ConfigOf<Fields>, ctx: BuildContext): Built | Promise<Built>;
}

/** A component whose whole config is one value (`bloblang: "..."`, `resource: name`). */
export interface RootComponentDefinition<Root extends AnyField, Built>
  extends Omit<ComponentSpec<RawOf<Root>, Built>, 'fields' | 'root' | 'build'> {
  root: Root;
  build(config: ParsedOf<Root>, ctx: BuildContext): Built | Promise<Built>;
}

/**
 * Declares a component once: lint, defaults, docs and `nekton list` read its fields, and its
 * factory receives the config those fields parse, typed from them.
 */
export function defineComponent<const Fields extends readonly AnyField[], Built>(
  definition: ComponentDefinition<Fields, Built>,
): ComponentSpec<RawConfigOf<Fields>, Built> {
  const { build, fields, ...rest } = definition;
  const parses = fields.some((f) => f.parse !== undefined);
  return {
    ...rest,
    fields: [...fields],
    build: parses
      ? (raw, ctx) => build(parseFields(fields, raw, ctx), ctx)
      : (raw, ctx) => build(raw as unknown as ConfigOf<Fields>, ctx),
  };
}

export function defineRootComponent<Root extends AnyField, Built>(
  definition: RootComponentDefinition<Root, Built>,
): ComponentSpec<RawOf<Root>, Built> {
  const { build, root, ...rest } = definition;
  const parse = root.parse;
  return {
    ...rest,
    fields: [],
    root,
    build: parse
      ? (raw, ctx) => build(parse(raw, ctx, '') as ParsedOf<Root>, ctx)
      : (raw, ctx) => build(raw as ParsedOf<Root>, ctx),
  };
}
