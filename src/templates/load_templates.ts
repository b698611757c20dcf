// `-t/--templates GLOB` (repeatable): reads every template file the patterns name and makes the
// registry of this process: the built-in components plus one per template.

import { formatFileLint } from '../config/lint.js';
import { filesOfPattern } from '../config/path_patterns.js';
import { ConfigError, errorMessage } from '../engine/errors.js';
import { Registry } from '../engine/registry.js';
import { processRegistry } from '../plugins/process_registry.js';
import { type CompiledTemplate, compileTemplate } from './compiled_template.js';
import { templateComponentSpec } from './template_component.js';
import { readTemplateFile } from './template_file.js';
import { runTemplateTests } from './template_tests.js';

export interface LoadedTemplates {
  /** The built-ins when no template was given (the same object: nothing is rebuilt). */
  registry: Registry;
  templates: CompiledTemplate[];
  /** `FILE(line,col) message` per problem in a template file. */
  lints: string[];
}

/**
 * The files of each pattern, de-duplicated. As in the reference, a glob that matches nothing adds
 * nothing, and a plain path is kept (a missing file then fails by name).
 */
export async function templateFiles(patterns: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const pattern of patterns) {
    for (const file of await filesOfPattern(pattern)) if (!files.includes(file)) files.push(file);
  }
  return files;
}

/** Throws ConfigError when a template cannot be read, compiled or registered. */
export async function loadTemplates(patterns: readonly string[]): Promise<LoadedTemplates> {
  const files = await templateFiles(patterns);
  if (files.length === 0) return { registry: processRegistry(), templates: [], lints: [] };
  const templates: CompiledTemplate[] = [];
  const lints: string[] = [];
  for (const file of files) {
    const read = await readTemplateFile(file);
    const fileLints = read.lints.map((lint) => formatFileLint(file, lint));
    lints.push(...fileLints);
    let template: CompiledTemplate;
    try {
      template = compileTemplate(read.config);
    } catch (err) {
      // The file's lints usually say why better than the first thing that stopped it.
      throw new ConfigError([...fileLints, errorMessage(err)].join('\n'));
    }
    const clash = templates.find((t) => t.kind === template.kind && t.config.name === template.config.name);
    if (clash) {
      throw new ConfigError(
        `template ${file}: ${template.kind} ${template.config.name} is also declared by template ${clash.config.file}`,
      );
    }
    if (processRegistry().has(template.kind, template.config.name)) {
      throw new ConfigError(
        `template ${file}: ${template.kind} ${template.config.name} is a built-in component; give the template another name`,
      );
    }
    templates.push(template);
  }
  const registry = new Registry([...processRegistry().list(), ...templates.map(templateComponentSpec)]);
  return { registry, templates, lints };
}

/** The templates' lints and the failures of their `tests`, as `FILE(line,col) message`. */
export function templateLintProblems(loaded: LoadedTemplates): string[] {
  const failures = loaded.templates.flatMap((t) =>
    runTemplateTests(t, loaded.registry).map((lint) => formatFileLint(t.config.file, lint)),
  );
  return [...loaded.lints, ...failures];
}
