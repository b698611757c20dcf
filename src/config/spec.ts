// Field and component specs: the one declaration from which lint, defaults, `nekton list`,
// generated docs and construction all come. Field names, types and defaults match Benthos's.
import type { Interpolation, Mapping } from '../bloblang/index.js';
import type { BuildContext, ComponentConfig } from '../engine/context.js';
import { FieldValueError } from '../engine/errors.js';
import { joinPath, parseFields } from './define_component.js';
import { parseDurationMs } from './duration.js';

export type ComponentKind = 'input' | 'output' | 'processor' | 'cache' | 'rate_limit' | 'buffer' | 'scanner';

export const COMPONENT_KINDS: readonly ComponentKind[] = [
  'input',
  'output',
  'processor',
  'cache',
  'rate_limit',
  'buffer',
  'scanner',
];

/** Component kinds that only appear in a service config (`metrics: {...}`, `tracer: {...}`). */
export type ServiceComponentKind = 'metrics' | 'tracer';

/** A field's value type as the reference's linter checks it; a component kind nests a component. */
export type FieldType =
  | 'string'
  | 'int'
  | 'float'
  | 'bool'
  | 'object'
  | 'unknown'
  | ComponentKind
  | ServiceComponentKind;

export type FieldKind = 'scalar' | 'array' | '2darray' | 'map';

/** The parsing a field's text gets beyond its YAML type, checked by the linter at the value's line. */
/** `duration`: a Go duration; `unsupported`: any non-empty value is refused (a field nekton cannot honour). */
export type ValueCheck = 'duration' | 'unsupported';

/** What a field parser may ask of the component being built (a BuildContext satisfies it). */
export interface FieldParseContext {
  mapping(text: string, fieldName: string): Mapping;
  interpolation(text: string, fieldName: string): Interpolation;
}

/**
 * One config field. `Name`, `Raw` (the value as written, defaults filled) and `Parsed` (what the
 * component's factory receives) are carried in the type so a component's config type is inferred
 * from its spec (`ConfigOf`), never written by hand.
 */
export interface FieldSpec<Name extends string = string, Raw = unknown, Parsed = Raw> {
  name: Name;
  type: FieldType;
  kind: FieldKind;
  description: string;
  /** Absent means no default: arrays become [], maps {}, objects are built from children. */
  default?: unknown;
  optional?: boolean;
  advanced?: boolean;
  deprecated?: boolean;
  /** Scrubbed from API reads and debug dumps. */
  secret?: boolean;
  /** Accepts `${! }` interpolation. */
  interpolated?: boolean;
  /** Holds a Bloblang mapping. */
  bloblang?: boolean;
  /** Holds a regular expression (RE2 syntax), checked by the linter. */
  regexp?: boolean;
  /** Checked by the linter beyond its type (an interpolated field only when it holds no `${! }`). */
  check?: ValueCheck;
  /** Allowed values (matched case-insensitively, as the reference does). */
  options?: string[];
  /** Fields of an object (or of each element of an object array/map). */
  children?: FieldSpec[];
  examples?: unknown[];
  /**
   * Turns the written value into what the factory receives (a duration into milliseconds, an
   * interpolation into its compiled form). `path` names the field in errors (`batching.period`).
   * Method syntax on purpose: specs of different value types share one array.
   */
  parse?(raw: Raw, ctx: FieldParseContext, path: string): Parsed;
  /** Type-level only: never set. */
  readonly __values?: { raw: Raw; parsed: Parsed };
}

/** Any field, whatever its value types. */
// biome-ignore lint/suspicious/noExplicitAny: the widest field type, for lists of fields of any value type
export type AnyField = FieldSpec<string, any, any>;

export type RawOf<F> = F extends { readonly __values?: { raw: infer R } } ? R : unknown;
export type ParsedOf<F> = F extends { readonly __values?: { parsed: infer P } } ? P : unknown;

/** The config a factory receives, inferred from its fields. */
export type ConfigOf<Fields extends readonly AnyField[]> = {
  [F in Fields[number] as F['name']]: ParsedOf<F>;
};

/** The config as written (defaults filled in), inferred from its fields; what `lint` hooks see. */
export type RawConfigOf<Fields extends readonly AnyField[]> = {
  [F in Fields[number] as F['name']]: RawOf<F>;
};

export type ComponentStatus = 'stable' | 'beta' | 'experimental' | 'deprecated';

export interface ComponentExample {
  title: string;
  /** A complete config (YAML) that lints and builds; a test checks every example. */
  config: string;
}

export interface ComponentSpec<Config = unknown, Built = unknown> {
  name: string;
  kind: ComponentKind;
  status: ComponentStatus;
  categories?: string[];
  summary: string;
  description?: string;
  /**
   * `fields`: the config is an object with these fields.
   * `root`: the config is one value described by `root` (e.g. `bloblang: "..."`, `resource: name`).
   */
  fields: FieldSpec[];
  root?: FieldSpec;
  /** Default for the whole component config when the user gives none (e.g. `noop: {}` / `null`). */
  examples?: ComponentExample[];
  /**
   * Extra checks beyond field types (one of two fields set, ...): each string is a lint message at
   * the component's line; a `FieldLint` is reported at its field's line when the field is written.
   */
  lint?: (config: Config) => (string | FieldLint)[];
  build(config: Config, ctx: BuildContext): Built | Promise<Built>;
}

/** A lint hook's message about one field: `field NAME: message` at that field's line. */
export interface FieldLint {
  field: string;
  message: string;
}

/** A lint hook's message as text (a FieldLint names its field first). */
export function lintText(lint: string | FieldLint): string {
  return typeof lint === 'string' ? lint : `field ${lint.field}: ${lint.message}`;
}

/** A spec of any config and built type: what registries and lists hold. */
// biome-ignore lint/suspicious/noExplicitAny: specs of differing config types share one list
export type AnyComponentSpec = ComponentSpec<any, any>;

export type FieldOptions = Omit<Partial<FieldSpec>, 'name' | 'type' | 'description' | 'parse' | '__values'>;

/** Options not given: the field is required (or has a default). */
type NoOptions = Record<never, never>;

/** `undefined` joins a value type when the field is optional and has no default. */
type Absent<O> = O extends { optional: true }
  ? O extends { default: NonNullable<unknown> | null }
    ? never
    : undefined
  : never;

function make(type: FieldType, name: string, description: string, options: FieldOptions = {}): FieldSpec {
  return { name, type, kind: 'scalar', description, ...options };
}

function typed<N extends string, Raw, Parsed = Raw>(spec: FieldSpec): FieldSpec<N, Raw, Parsed> {
  return spec as FieldSpec<N, Raw, Parsed>;
}

/** Parses a value unless it is absent (an optional field left out). */
function present<Raw, Parsed>(parse: (raw: Raw, ctx: FieldParseContext, path: string) => Parsed) {
  return (raw: Raw | undefined, ctx: FieldParseContext, path: string): Parsed | undefined =>
    raw === undefined || raw === null ? undefined : parse(raw, ctx, path);
}

/**
 * Builders that keep specs short and typed: `field.duration('timeout', 'How long to wait.',
 * {default: '5s'})` lints the value at its line and hands the factory milliseconds.
 */
export const field = {
  string: <const N extends string, const O extends FieldOptions = NoOptions>(
    name: N,
    description: string,
    options?: O,
  ) => typed<N, string | Absent<O>>(make('string', name, description, options)),
  int: <const N extends string, const O extends FieldOptions = NoOptions>(
    name: N,
    description: string,
    options?: O,
  ) => typed<N, number | Absent<O>>(make('int', name, description, options)),
  float: <const N extends string, const O extends FieldOptions = NoOptions>(
    name: N,
    description: string,
    options?: O,
  ) => typed<N, number | Absent<O>>(make('float', name, description, options)),
  bool: <const N extends string, const O extends FieldOptions = NoOptions>(
    name: N,
    description: string,
    options?: O,
  ) => typed<N, boolean | Absent<O>>(make('bool', name, description, options)),
  /** Any value; give its shape as `T` when the factory reads it. */
  any: <T = unknown, const N extends string = string, const O extends FieldOptions = NoOptions>(
    name: N,
    description: string,
    options?: O,
  ) => typed<N, T | Absent<O>>(make('unknown', name, description, options)),
  object: <
    const N extends string,
    const C extends readonly AnyField[],
    const O extends FieldOptions = NoOptions,
  >(
    name: N,
    description: string,
    children: C,
    options?: O,
  ) =>
    typed<N, RawConfigOf<C> | Absent<O>, ConfigOf<C> | Absent<O>>({
      ...make('object', name, description, { ...options, children: [...children] }),
      parse: (raw: unknown, ctx: FieldParseContext, path: string) => parseFields(children, raw, ctx, path),
    }),
  component: <const N extends string, const O extends FieldOptions = NoOptions>(
    kind: ComponentKind,
    name: N,
    description: string,
    options?: O,
  ) => typed<N, ComponentConfig | Absent<O>>(make(kind, name, description, options)),
  /** Turns any field into an array of it. */
  array: <F extends AnyField>(spec: F) => {
    const element = spec.parse;
    return typed<F['name'], RawOf<F>[], ParsedOf<F>[]>({
      ...spec,
      kind: 'array',
      parse: element
        ? (raw: unknown[], ctx: FieldParseContext, path: string) =>
            // Absent (a factory called without normalised defaults) stays absent.
            raw?.map((item, i) => element(item, ctx, joinPath(path, String(i))))
        : undefined,
    });
  },
  /** An array of arrays (`2darray`), e.g. `check` lists of lists. */
  array2d: <F extends AnyField>(spec: F) =>
    typed<F['name'], RawOf<F>[][], RawOf<F>[][]>({ ...spec, kind: '2darray', parse: undefined }),
  map: <F extends AnyField>(spec: F) => {
    const element = spec.parse;
    return typed<F['name'], Record<string, RawOf<F>>, Record<string, ParsedOf<F>>>({
      ...spec,
      kind: 'map',
      parse: element
        ? (raw: Record<string, unknown>, ctx: FieldParseContext, path: string) =>
            raw === undefined || raw === null
              ? raw
              : Object.fromEntries(
                  Object.entries(raw).map(([k, v]) => [k, element(v, ctx, joinPath(path, k))]),
                )
        : undefined,
    });
  },

  // Fields that carry meaning: the linter checks them and the factory gets them parsed.

  /** A Go-style duration (`1.5s`, `300ms`); the factory receives milliseconds (`''` is 0). */
  duration: <const N extends string, const O extends FieldOptions = NoOptions>(
    name: N,
    description: string,
    options?: O,
  ) =>
    typed<N, string | Absent<O>, number | Absent<O>>({
      ...make('string', name, description, { check: 'duration', ...options }),
      parse: present((raw: string, _ctx, path) => durationMs(raw, path)),
    }),
  /** A string with `${! }` interpolations; the factory receives it compiled. */
  interpolated: <const N extends string, const O extends FieldOptions = NoOptions>(
    name: N,
    description: string,
    options?: O,
  ) =>
    typed<N, string | Absent<O>, Interpolation | Absent<O>>({
      ...make('string', name, description, { interpolated: true, ...options }),
      parse: present((raw: string, ctx, path) => ctx.interpolation(raw, path)),
    }),
  /** A Bloblang mapping (or query); the factory receives it compiled, or undefined when empty. */
  mapping: <const N extends string, const O extends FieldOptions = NoOptions>(
    name: N,
    description: string,
    options?: O,
  ) =>
    typed<N, string | Absent<O>, Mapping | undefined>({
      ...make('string', name, description, { bloblang: true, ...options }),
      parse: (raw: string | undefined, ctx: FieldParseContext, path: string) =>
        raw === undefined || raw === null || raw === '' ? undefined : ctx.mapping(raw, path),
    }),
  /** A password, token or key: scrubbed from every read path, log and error. */
  secret: <const N extends string, const O extends FieldOptions = NoOptions>(
    name: N,
    description: string,
    options?: O,
  ) => typed<N, string | Absent<O>>(make('string', name, description, { secret: true, ...options })),
  /** One of a fixed set of values, matched case-insensitively; the factory receives the option as declared. */
  enum: <const N extends string, const V extends string, const O extends FieldOptions = NoOptions>(
    name: N,
    description: string,
    values: readonly V[],
    options?: O,
  ) =>
    typed<N, string | Absent<O>, V | Absent<O>>({
      ...make('string', name, description, { options: [...values], ...options }),
      parse: present(
        (raw: string) => (values.find((v) => v.toLowerCase() === raw.toLowerCase()) ?? raw) as V,
      ),
    }),
  /**
   * A list of addresses where each item may hold several separated by commas (the reference's
   * `urls`/`addresses` fields); the factory receives them split and trimmed.
   */
  urlList: <const N extends string, const O extends FieldOptions = NoOptions>(
    name: N,
    description: string,
    options?: O,
  ) =>
    typed<N, string[], string[]>({
      ...make('string', name, description, options),
      kind: 'array',
      parse: (raw: string[]) => expandUrls(raw),
    }),
};

/** Go-style duration text to milliseconds; `''` means 0 (unset); a bad value names its field. */
export function durationMs(text: string, fieldName = 'duration'): number {
  if (text.trim() === '') return 0;
  try {
    return parseDurationMs(text.trim());
  } catch (err) {
    throw new FieldValueError(fieldName, (err as Error).message);
  }
}

/** Splits comma-separated items of a URL list and drops the empty ones. */
export function expandUrls(urls: readonly string[]): string[] {
  return urls.flatMap((item) => item.split(',').map((part) => part.trim())).filter((part) => part !== '');
}

/**
 * A field is reported missing by the linter when it is a scalar with no default that is not
 * optional, not deprecated, has no children and is not a nested component (the reference's rule).
 */
export function isLintRequired(spec: FieldSpec): boolean {
  return (
    spec.kind === 'scalar' &&
    spec.default === undefined &&
    !spec.optional &&
    !spec.deprecated &&
    !spec.children &&
    ['string', 'int', 'float', 'bool', 'unknown', 'object'].includes(spec.type)
  );
}

// Declaring a component from its typed fields lives beside; re-exported so importers keep one path.
export {
  type ComponentDefinition,
  defineComponent,
  defineRootComponent,
  parseFields,
  type RootComponentDefinition,
} from './define_component.js';
