// Reads a template file: its lints (at their lines, against the reference's template fields) and
// its values with defaults filled. Template files are read as written: no `${ENV}` interpolation,
// as in the reference.
import { readFile } from 'node:fs/promises';
import type { Lint } from '../config/lint.js';
import { ConfigLinter } from '../config/linter.js';
import { schemaProvider } from '../config/schema.js';
import { buildLineIndex, type LineIndex, parseYaml, pathKey, yamlToValue } from '../config/yaml_document.js';
import { ConfigError, errorMessage } from '../engine/errors.js';
import { processRegistry } from '../plugins/process_registry.js';
import { TEMPLATE_FILE_FIELDS } from './template_schema.js';

export interface TemplateFieldConfig {
  name: string;
  description: string;
  type: string | undefined;
  kind: string;
  default?: unknown;
  advanced: boolean;
  options?: unknown;
  /** Line of the field's entry in the template file. */
  line: number;
}

export interface TemplateTestConfig {
  name: string;
  label: string;
  config: unknown;
  expected?: unknown;
  line: number;
}

export interface TemplateConfig {
  /** The file it came from, for messages. */
  file: string;
  name: string;
  type: string;
  status: string;
  categories: string[];
  summary: string;
  description: string;
  fields: TemplateFieldConfig[];
  mapping: string;
  /** Line of the `mapping` value, so a parse error inside it names the file's line. */
  mappingLine: number;
  metricsMapping: string;
  tests: TemplateTestConfig[];
}

export interface ReadTemplate {
  config: TemplateConfig;
  lints: Lint[];
}

/** Reads and lints one template file; throws ConfigError when it cannot be read or parsed. */
export async function readTemplateFile(file: string): Promise<ReadTemplate> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ConfigError(`template ${file}: ${code === 'ENOENT' ? 'file not found' : errorMessage(err)}`);
  }
  return readTemplateText(text, file);
}

export function readTemplateText(text: string, file: string): ReadTemplate {
  const parsed = parseYaml(text, file);
  const linter = new ConfigLinter(parsed, { provider: schemaProvider(processRegistry()) });
  linter.fields(TEMPLATE_FILE_FIELDS, linter.root);
  const value = yamlToValue(parsed);
  const lines = buildLineIndex(parsed);
  return { config: templateConfigOf(isRecord(value) ? value : {}, lines, file), lints: linter.result() };
}

function templateConfigOf(doc: Record<string, unknown>, lines: LineIndex, file: string): TemplateConfig {
  const lineAt = (...path: (string | number)[]) => lines.get(pathKey(path))?.line ?? 1;
  return {
    file,
    name: text(doc.name),
    type: text(doc.type),
    status: text(doc.status) || 'stable',
    categories: list(doc.categories).map(text),
    summary: text(doc.summary),
    description: text(doc.description),
    fields: list(doc.fields).map((f, i) => fieldConfigOf(isRecord(f) ? f : {}, lineAt('fields', i))),
    mapping: text(doc.mapping),
    mappingLine: lineAt('mapping'),
    metricsMapping: text(doc.metrics_mapping),
    tests: list(doc.tests).map((t, i) => testConfigOf(isRecord(t) ? t : {}, lineAt('tests', i))),
  };
}

function fieldConfigOf(f: Record<string, unknown>, line: number): TemplateFieldConfig {
  const out: TemplateFieldConfig = {
    name: text(f.name),
    description: text(f.description),
    type: f.type === undefined || f.type === null ? undefined : text(f.type),
    kind: text(f.kind) || 'scalar',
    advanced: f.advanced === true,
    line,
  };
  // `default: null` is no default, as the reference decodes it.
  if (f.default !== undefined && f.default !== null) out.default = f.default;
  if (f.options !== undefined) out.options = f.options;
  return out;
}

function testConfigOf(t: Record<string, unknown>, line: number): TemplateTestConfig {
  const out: TemplateTestConfig = { name: text(t.name), label: text(t.label), config: t.config ?? {}, line };
  if (t.expected !== undefined && t.expected !== null) out.expected = t.expected;
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return value === undefined || value === null ? '' : String(value);
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
