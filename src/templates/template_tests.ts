// A template's `tests`: each renders its config through the template, lints the result as a
// component of the template's kind and, when `expected` is given, compares the two.
import { stringify } from 'yaml';
import type { Lint } from '../config/lint.js';
import { lintComponentConfig } from '../config/lint_config.js';
import { normaliseSettings } from '../config/normalise.js';
import { schemaProvider } from '../config/schema.js';
import { parseYaml } from '../config/yaml_document.js';
import { errorMessage } from '../engine/errors.js';
import type { Registry } from '../engine/registry.js';
import { type CompiledTemplate, renderTemplate } from './compiled_template.js';
import { configDifferences } from './config_diff.js';

/** One lint per failing test, at the test's line in the template file. */
export function runTemplateTests(template: CompiledTemplate, registry: Registry): Lint[] {
  const provider = schemaProvider(registry);
  const failures: Lint[] = [];
  for (const test of template.config.tests) {
    const fail = (message: string) =>
      failures.push({ line: test.line, column: 1, message: `test '${test.name}': ${message}` });
    let rendered: unknown;
    try {
      const schema = { name: template.config.name, kind: template.kind, fields: template.fields };
      const fields = normaliseSettings(
        schema,
        test.config,
        { docPath: [], configPath: 'root' },
        { provider },
      );
      rendered = renderTemplate(template, fields, test.label);
    } catch (err) {
      fail(errorMessage(err));
      continue;
    }
    const parsed = parseYaml(stringify(rendered ?? null));
    for (const lint of lintComponentConfig(parsed, template.kind, { provider }))
      fail(`lint error in resulting config: ${lint.message}`);
    if (test.expected !== undefined) {
      const differences = configDifferences(test.expected, rendered);
      if (differences.length > 0)
        fail(`mismatch between expected and actual resulting config:\n  ${differences.join('\n  ')}`);
    }
  }
  return failures;
}
