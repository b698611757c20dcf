// The component a template declares: linted and defaulted by the template's fields, built by
// rendering the template's mapping into a config of its kind and building that in its place
// (same label and path), with the template's metrics mapping over the inner components' metrics.

import { normaliseComponent } from '../config/normalise.js';
import type { ComponentSpec } from '../config/spec.js';
import type { BuildContext, NestedBuilders } from '../engine/context.js';
import { ConfigError, errorMessage } from '../engine/errors.js';
import { type CompiledTemplate, renderTemplate } from './compiled_template.js';

export function templateComponentSpec(template: CompiledTemplate): ComponentSpec {
  const { config } = template;
  return {
    name: config.name,
    kind: template.kind,
    status: config.status as ComponentSpec['status'],
    categories: config.categories,
    summary: config.summary,
    description: config.description,
    fields: template.fields,
    build: (fields, ctx) => buildTemplated(template, fields, ctx),
  };
}

async function buildTemplated(template: CompiledTemplate, fields: unknown, ctx: BuildContext) {
  const kind = template.kind;
  const where = `${ctx.path}: template ${template.config.name}`;
  let inner: ReturnType<typeof normaliseComponent>;
  try {
    const rendered = renderTemplate(template, fields, ctx.label);
    inner = normaliseComponent(
      kind,
      rendered,
      { docPath: [], configPath: ctx.path },
      { provider: ctx.schemas },
    );
  } catch (err) {
    throw new ConfigError(`${where}: ${errorMessage(err)}`);
  }
  if (inner.label === '') inner.label = ctx.label;
  const { metricsMapping } = template;
  const builders: NestedBuilders = metricsMapping
    ? ctx.withMetrics((scope) => metricsMapping.scope(scope, ctx.label))
    : ctx;
  switch (kind) {
    case 'input':
      return builders.buildInput(inner);
    case 'output':
      return builders.buildOutput(inner);
    case 'processor':
      return builders.buildProcessor(inner);
    case 'cache':
      return builders.buildCache(inner);
    case 'rate_limit':
      return builders.buildRateLimit(inner);
  }
}
