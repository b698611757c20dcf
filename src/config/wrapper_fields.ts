// Keys allowed beside the component name (`label`, `processors`, ...), per kind, as the reference
// declares them (components.json `_wrapper_fields`).
import type { ConfigKind } from './schema.js';
import type { FieldSpec } from './spec.js';

const label: FieldSpec = { name: 'label', type: 'string', kind: 'scalar', description: '', default: '' };
const meta: FieldSpec = { name: 'meta', type: 'unknown', kind: 'map', description: '', optional: true };
const plugin: FieldSpec = { name: 'plugin', type: 'object', kind: 'scalar', description: '', children: [] };
const type: FieldSpec = { name: 'type', type: 'string', kind: 'scalar', description: '' };
const processors: FieldSpec = { name: 'processors', type: 'processor', kind: 'array', description: '' };
const metricsMapping: FieldSpec = {
  name: 'mapping',
  type: 'string',
  kind: 'scalar',
  description: '',
  default: '',
  bloblang: true,
};

export function wrapperFields(kind: ConfigKind): Map<string, FieldSpec> {
  const fields: FieldSpec[] = [meta, plugin, type];
  if (kind === 'input' || kind === 'output') fields.push(label, processors);
  if (kind === 'processor' || kind === 'cache' || kind === 'rate_limit') fields.push(label);
  if (kind === 'metrics') fields.push(metricsMapping);
  return new Map(fields.map((f) => [f.name, f]));
}

/** Kinds whose components carry a `label`. */
export function canLabel(kind: ConfigKind): boolean {
  return ['input', 'output', 'processor', 'cache', 'rate_limit'].includes(kind);
}

/** The component used when a section names no type at all (`input: {label: x}`). */
export function defaultTypeOf(kind: ConfigKind): string | undefined {
  switch (kind) {
    case 'input':
      return 'stdin';
    case 'output':
      return 'stdout';
    case 'buffer':
      return 'none';
    case 'metrics':
      return 'prometheus';
    case 'tracer':
      return 'none';
    default:
      return undefined;
  }
}
