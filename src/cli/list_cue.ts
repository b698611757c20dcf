// `nekton list --format cue`: CUE definitions of the config file (`#Config`, one definition per
// component kind as a disjunction of its components), from the same field specs lint reads.

import { OBSERVABILITY_COMPONENTS } from '../config/observability_components.js';
import { type ComponentSchema, type ConfigKind, configFieldOf, isConfigKind } from '../config/schema.js';
import { SERVICE_FIELDS } from '../config/service_spec.js';
import { COMPONENT_KINDS, type FieldSpec } from '../config/spec.js';
import { processRegistry } from '../plugins/process_registry.js';

const SCALARS: Record<string, string> = {
  string: 'string',
  int: 'int',
  float: 'number',
  bool: 'bool',
  unknown: '_',
};

export function configCue(): string {
  const lines = ['package nekton', '', `#Config: ${objectCue(SERVICE_FIELDS, 0)}`];
  const kinds: ConfigKind[] = [...COMPONENT_KINDS, 'metrics', 'tracer'];
  for (const kind of kinds) {
    const members = componentsOf(kind).map((c) => componentCue(c));
    lines.push('', `${definitionName(kind)}: ${members.length > 0 ? members.join(' | ') : '_|_'}`);
  }
  return `${lines.join('\n')}\n`;
}

function componentsOf(kind: ConfigKind): ComponentSchema[] {
  if (kind === 'metrics' || kind === 'tracer') return OBSERVABILITY_COMPONENTS.filter((c) => c.kind === kind);
  return processRegistry().list(kind);
}

/** `#Input`, `#RateLimit`: the definition of a component kind. */
function definitionName(kind: string): string {
  return `#${kind
    .split('_')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('')}`;
}

function componentCue(component: ComponentSchema): string {
  const parts = [`${label(component.name)}: ${valueCue(configFieldOf(component), 1)}`, 'label?: string'];
  if (component.kind === 'input' || component.kind === 'output') parts.push('processors?: [...#Processor]');
  return `{${parts.join(', ')}}`;
}

function objectCue(fields: readonly FieldSpec[], depth: number): string {
  if (fields.length === 0) return '{}';
  const indent = '\t'.repeat(depth + 1);
  const body = fields.map((f) => `${indent}${label(f.name)}?: ${valueCue(f, depth + 1)}`);
  return `{\n${body.join('\n')}\n${'\t'.repeat(depth)}}`;
}

function valueCue(field: FieldSpec, depth: number): string {
  let item: string;
  if (isConfigKind(field.type)) item = definitionName(field.type);
  else if (field.type === 'object') item = field.children ? objectCue(field.children, depth) : '{...}';
  else item = SCALARS[field.type] ?? '_';
  switch (field.kind) {
    case 'array':
      return `[...${item}]`;
    case '2darray':
      return `[...[...${item}]]`;
    case 'map':
      return `{[string]: ${item}}`;
    default:
      return item;
  }
}

/** A field name as a CUE label: quoted unless it is a plain identifier. */
function label(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : JSON.stringify(name);
}
