// A template's `fields` entry -> the FieldSpec a config using the template is linted and
// defaulted against, as the reference converts them.
import type { FieldSpec, FieldType } from '../config/spec.js';
import type { TemplateFieldConfig } from './template_file.js';

const SCALAR_TYPES: Record<string, FieldType> = {
  string: 'string',
  int: 'int',
  float: 'float',
  bool: 'bool',
  unknown: 'unknown',
};

/** Throws an Error whose message says what is wrong with the field (the caller names the field). */
export function fieldSpecOf(config: TemplateFieldConfig): FieldSpec {
  if (config.type === undefined) throw new Error('missing type field');
  const spec: FieldSpec = {
    name: config.name,
    type: 'unknown',
    kind: kindOf(config.kind),
    description: config.description,
  };
  if (config.advanced) spec.advanced = true;
  if (config.default !== undefined) spec.default = config.default;
  switch (config.type) {
    case 'bloblang':
      spec.type = 'string';
      spec.bloblang = true;
      break;
    case 'string_enum':
      spec.type = 'string';
      spec.options = enumOptions(config.options);
      break;
    case 'string_annotated_enum':
      spec.type = 'string';
      spec.options = annotatedOptions(config.options);
      break;
    default: {
      const type = SCALAR_TYPES[config.type];
      if (!type) throw new Error(`unrecognised type: ${config.type}`);
      spec.type = type;
    }
  }
  return spec;
}

function kindOf(kind: string): FieldSpec['kind'] {
  switch (kind) {
    case 'scalar':
      return 'scalar';
    case 'list':
      return 'array';
    case 'map':
      return 'map';
    default:
      throw new Error(`unrecognised kind: ${kind}`);
  }
}

function enumOptions(options: unknown): string[] {
  if (!Array.isArray(options)) throw new Error(`expected options to be an array, got: ${describe(options)}`);
  if (options.length === 0) throw new Error('at least one option must be provided');
  if (!options.every((o) => typeof o === 'string')) throw new Error('only string options are allowed');
  const sorted = [...options].sort();
  if (new Set(sorted).size !== sorted.length) throw new Error('duplicate options are not allowed');
  return sorted;
}

function annotatedOptions(options: unknown): string[] {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new Error(`expected options to be an object, got: ${describe(options)}`);
  const entries = Object.entries(options);
  if (entries.length === 0) throw new Error('at least one annotated option must be provided');
  for (const [option, annotation] of entries) {
    if (typeof annotation !== 'string')
      throw new Error(
        `expected the annotation for option "${option}" to be a string, got: ${describe(annotation)}`,
      );
  }
  return entries.map(([option]) => option).sort();
}

function describe(value: unknown): string {
  if (value === undefined || value === null) return 'nothing';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
