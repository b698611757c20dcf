// A template ready to use: its fields as FieldSpecs, its mapping compiled, and the render step
// that turns a templated component's config (defaults filled) into the config of its kind.
import { dirname } from 'node:path';
import { type Mapping, parseMapping } from '../bloblang/index.js';
import type { FieldSpec } from '../config/spec.js';
import { ConfigError, errorMessage } from '../engine/errors.js';
import { Message } from '../message/message.js';
import { fieldSpecOf } from './template_fields.js';
import type { TemplateConfig } from './template_file.js';
import { MetricsMapping } from './template_metrics.js';
import { TEMPLATE_KINDS, type TemplateKind } from './template_schema.js';

export interface CompiledTemplate {
  readonly config: TemplateConfig;
  readonly kind: TemplateKind;
  readonly fields: FieldSpec[];
  readonly mapping: Mapping;
  readonly metricsMapping: MetricsMapping | undefined;
}

/** Throws a ConfigError naming the file and line of what keeps the template from being used. */
export function compileTemplate(config: TemplateConfig): CompiledTemplate {
  const at = (line: number, message: string) =>
    new ConfigError(`template ${config.file}(${line},1) ${message}`);
  if (config.name === '') throw at(1, 'field name is required');
  const kind = TEMPLATE_KINDS.find((k) => k === config.type);
  if (!kind) throw at(1, `unable to register template for component type '${config.type}'`);
  const fields = config.fields.map((f, i) => {
    try {
      return fieldSpecOf(f);
    } catch (err) {
      throw at(f.line, `field ${i}: ${errorMessage(err)}`);
    }
  });
  const importDir = dirname(config.file);
  let mapping: Mapping;
  try {
    mapping = parseMapping(config.mapping, { importDir });
  } catch (err) {
    throw at(config.mappingLine, `parse mapping: ${errorMessage(err)}`);
  }
  let metricsMapping: MetricsMapping | undefined;
  if (config.metricsMapping.trim() !== '') {
    try {
      metricsMapping = new MetricsMapping(config.metricsMapping, importDir);
    } catch (err) {
      throw at(1, `parse metrics mapping: ${errorMessage(err)}`);
    }
  }
  return { config, kind, fields, mapping, metricsMapping };
}

/**
 * Runs the template's mapping on a config of its fields (defaults filled); `meta("label")` reads
 * the templated component's label. Throws an Error saying why no config came out.
 */
export function renderTemplate(template: CompiledTemplate, fields: unknown, label: string): unknown {
  const input = Message.fromStructured(fields ?? {}, new Map([['label', label]]));
  let out: Message | null;
  try {
    out = template.mapping.apply([input], 0);
  } catch (err) {
    throw new Error(`mapping failed for template component: ${errorMessage(err)}`);
  }
  if (out === null) throw new Error('mapping for template component deleted the config');
  try {
    return out.structured();
  } catch (err) {
    throw new Error(`mapping for template component resulted in invalid config: ${errorMessage(err)}`);
  }
}
