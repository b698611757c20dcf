// `nekton template lint PATH...`: lints template files and runs their tests; prints
// `FILE(line,col) message` per problem and exits 1 if any file has one. PATH is a file, a glob,
// a directory or `dir/...`, as for `nekton lint`.
import * as all from '../components/all.js';
import { formatFileLint, type Lint } from '../config/lint.js';
import type { AnyComponentSpec } from '../config/spec.js';
import { ConfigError, errorMessage } from '../engine/errors.js';
import { Registry } from '../engine/registry.js';
import { type CompiledTemplate, compileTemplate } from '../templates/compiled_template.js';
import { loadTemplates } from '../templates/load_templates.js';
import { templateComponentSpec } from '../templates/template_component.js';
import { readTemplateFile } from '../templates/template_file.js';
import { runTemplateTests } from '../templates/template_tests.js';
import { filesOfPathArgument } from './path_arguments.js';

export interface TemplateLintOptions {
  verbose?: boolean;
  /** `-t` templates the linted ones may render into. */
  templates?: string[];
}

interface Linted {
  file: string;
  problems: string[];
  template?: CompiledTemplate;
}

export async function lintTemplates(
  args: readonly string[],
  options: TemplateLintOptions = {},
): Promise<number> {
  let extra: CompiledTemplate[];
  const files: string[] = [];
  try {
    extra = (await loadTemplates(options.templates ?? [])).templates;
    for (const arg of args) files.push(...(await filesOfPathArgument(arg, /\.ya?ml$/)).files);
  } catch (err) {
    process.stderr.write(`${errorMessage(err)}\n`);
    return 1;
  }
  const linted = await Promise.all(files.map(lintOne));
  // The tests render with every template at hand, so one template may render into another.
  const registry = registryOf([...extra, ...linted.flatMap((l) => (l.template ? [l.template] : []))]);
  for (const entry of linted) {
    if (!entry.template) continue;
    entry.problems.push(
      ...runTemplateTests(entry.template, registry).map((l) => formatFileLint(entry.file, l)),
    );
  }
  if (options.verbose) {
    for (const { file, problems } of linted)
      process.stdout.write(`${file}: ${problems.length > 0 ? 'FAILED' : 'OK'}\n`);
  }
  const problems = linted.flatMap((l) => l.problems);
  if (problems.length > 0) process.stderr.write(`${problems.join('\n')}\n`);
  return problems.length > 0 ? 1 : 0;
}

async function lintOne(file: string): Promise<Linted> {
  const atLine = (lint: Lint) => formatFileLint(file, lint);
  try {
    const read = await readTemplateFile(file);
    const problems = read.lints.map(atLine);
    try {
      return { file, problems, template: compileTemplate(read.config) };
    } catch (err) {
      return { file, problems: [...problems, errorMessage(err)] };
    }
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return { file, problems: [err.message] };
  }
}

/** Built-ins plus the templates; a template named like a built-in or an earlier one is left out. */
function registryOf(templates: readonly CompiledTemplate[]): Registry {
  const specs: AnyComponentSpec[] = [...Object.values(all)];
  const seen = new Set(specs.map((s) => `${s.kind}/${s.name}`));
  for (const template of templates) {
    const key = `${template.kind}/${template.config.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    specs.push(templateComponentSpec(template));
  }
  return new Registry(specs);
}
