// The fields of a template file, as the reference declares them: the linter walks a template file
// against these, so a misspelt or mistyped key is reported at its line like any config lint.
import { type FieldSpec, field } from '../config/spec.js';

export const TEMPLATE_KINDS = ['cache', 'input', 'output', 'processor', 'rate_limit'] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

export const TEMPLATE_FIELD_TYPES = [
  'string',
  'string_enum',
  'string_annotated_enum',
  'int',
  'float',
  'bool',
  'bloblang',
  'unknown',
] as const;

const templateField: FieldSpec = field.object('fields', 'The configuration fields of the template.', [
  field.string('name', 'The name of the field.'),
  field.string('description', 'A description of the field.', { default: '' }),
  field.string('type', 'The scalar type of the field.', { options: [...TEMPLATE_FIELD_TYPES] }),
  field.string('kind', 'The kind of the field.', { options: ['scalar', 'map', 'list'], default: 'scalar' }),
  field.any('default', 'A default value; without one a config that leaves the field out is refused.', {
    optional: true,
  }),
  field.bool('advanced', 'Whether this field is considered advanced.', { default: false }),
  field.any('options', 'Options of a string_enum (a list) or string_annotated_enum (a map) field.', {
    optional: true,
  }),
]);

const templateTest: FieldSpec = field.object('tests', 'Unit tests run by `nekton template lint`.', [
  field.string('name', 'A name to identify the test.'),
  field.string('label', 'A label to give the templated component in the test.', { default: '' }),
  field.any('config', 'The config of the templated component to render.'),
  field.any('expected', 'The config the template must render, when given.', { optional: true }),
]);

export const TEMPLATE_FILE_FIELDS: FieldSpec[] = [
  field.string('name', 'The name of the component this template creates.'),
  field.string('type', 'The kind of the component this template creates.', { options: [...TEMPLATE_KINDS] }),
  field.string('status', 'The stability of the template.', {
    options: ['stable', 'beta', 'experimental', 'deprecated'],
    default: 'stable',
  }),
  field.array(field.string('categories', 'Tags grouping components in documentation.', { default: [] })),
  field.string('summary', 'A short summary of the component.', { default: '' }),
  field.string('description', 'A longer description of the component.', { default: '' }),
  field.array(templateField),
  field.mapping('mapping', 'Turns the fields of the template into a config of its kind.'),
  field.mapping('metrics_mapping', 'Renames, relabels or drops the metrics of the inner components.', {
    default: '',
  }),
  { ...field.array(templateTest), default: [] },
];
