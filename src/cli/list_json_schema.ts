// `nekton list --format jsonschema`: a JSON Schema (draft-07) of the config file, from the same
// field specs lint reads, so editors can complete and check configs.

import { OBSERVABILITY_COMPONENTS } from '../config/observability_components.js';
import { type ComponentSchema, type ConfigKind, configFieldOf, isConfigKind } from '../config/schema.js';
import { SERVICE_FIELDS } from '../config/service_spec.js';
import { COMPONENT_KINDS, type FieldSpec } from '../config/spec.js';
import { processRegistry } from '../plugins/process_registry.js';

type JsonSchema = Record<string, unknown>;

const SCALARS: Record<string, JsonSchema> = {
  string: { type: 'string' },
  int: { type: 'integer' },
  float: { type: 'number' },
  bool: { type: 'boolean' },
  unknown: {},
};

export function configJsonSchema(): JsonSchema {
  const definitions: Record<string, JsonSchema> = {};
  const kinds: ConfigKind[] = [...COMPONENT_KINDS, 'metrics', 'tracer'];
  for (const kind of kinds) definitions[kind] = { anyOf: componentsOf(kind).map((c) => componentSchema(c)) };
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: objectProperties(SERVICE_FIELDS),
    definitions,
  };
}

function componentsOf(kind: ConfigKind): ComponentSchema[] {
  if (kind === 'metrics' || kind === 'tracer') return OBSERVABILITY_COMPONENTS.filter((c) => c.kind === kind);
  return processRegistry().list(kind);
}

/** `{<name>: {...settings}, label, processors}`: one type key, as a component is written. */
function componentSchema(component: ComponentSchema): JsonSchema {
  const properties: Record<string, JsonSchema> = {
    [component.name]: valueSchema(configFieldOf(component)),
    label: { type: 'string' },
  };
  if (component.kind === 'input' || component.kind === 'output') {
    properties.processors = { type: 'array', items: { $ref: '#/definitions/processor' } };
  }
  return { type: 'object', properties, required: [component.name], additionalProperties: false };
}

function objectProperties(fields: readonly FieldSpec[]): Record<string, JsonSchema> {
  return Object.fromEntries(fields.map((f) => [f.name, fieldSchema(f)]));
}

function fieldSchema(field: FieldSpec): JsonSchema {
  const schema = valueSchema(field);
  if (field.description) schema.description = field.description;
  if (field.default !== undefined) schema.default = field.default;
  return schema;
}

/** The field's value: its type, wrapped as an array, an array of arrays or a map per its kind. */
function valueSchema(field: FieldSpec): JsonSchema {
  let item: JsonSchema;
  if (isConfigKind(field.type)) item = { $ref: `#/definitions/${field.type}` };
  else if (field.type === 'object') {
    item = field.children
      ? { type: 'object', properties: objectProperties(field.children) }
      : { type: 'object' };
  } else item = { ...SCALARS[field.type] };
  switch (field.kind) {
    case 'array':
      return { type: 'array', items: item };
    case '2darray':
      return { type: 'array', items: { type: 'array', items: item } };
    case 'map':
      return { type: 'object', additionalProperties: item };
    default:
      return item;
  }
}
