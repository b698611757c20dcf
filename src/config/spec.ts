// Field and component specs: the one declaration from which lint, defaults, `nekton list`,
// generated docs and construction all come. Field names, types and defaults match Benthos's.
import type { BuildContext } from '../engine/context.js';

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

export interface FieldSpec {
  name: string;
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
  /** Allowed values (matched case-insensitively, as the reference does). */
  options?: string[];
  /** Fields of an object (or of each element of an object array/map). */
  children?: FieldSpec[];
  examples?: unknown[];
}

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
  /** Extra checks beyond field types (one of two fields set, ...); each string is a lint message. */
  lint?: (config: Config) => string[];
  build(config: Config, ctx: BuildContext): Built | Promise<Built>;
}

type FieldOptions = Omit<Partial<FieldSpec>, 'name' | 'type' | 'description'>;

function make(type: FieldType, name: string, description: string, options: FieldOptions = {}): FieldSpec {
  return { name, type, kind: 'scalar', description, ...options };
}

/** Builders that keep specs short: `str('path', 'The file to write.', {interpolated: true})`. */
export const field = {
  string: (name: string, description: string, options?: FieldOptions) =>
    make('string', name, description, options),
  int: (name: string, description: string, options?: FieldOptions) => make('int', name, description, options),
  float: (name: string, description: string, options?: FieldOptions) =>
    make('float', name, description, options),
  bool: (name: string, description: string, options?: FieldOptions) =>
    make('bool', name, description, options),
  any: (name: string, description: string, options?: FieldOptions) =>
    make('unknown', name, description, options),
  object: (name: string, description: string, children: FieldSpec[], options?: FieldOptions) =>
    make('object', name, description, { ...options, children }),
  component: (kind: ComponentKind, name: string, description: string, options?: FieldOptions) =>
    make(kind, name, description, options),
  /** Turns any field into an array of it. */
  array: (spec: FieldSpec): FieldSpec => ({ ...spec, kind: 'array' }),
  map: (spec: FieldSpec): FieldSpec => ({ ...spec, kind: 'map' }),
};

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
