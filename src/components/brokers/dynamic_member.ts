// Reading a dynamic member's config at run time: a POSTed body (YAML or JSON; no lint, no env
// interpolation, unknown fields ignored, spec §6.4) or a static entry, with the stored form of §6.5.
import { normaliseComponent } from '../../config/normalise.js';
import { normalisedComponentYaml } from '../../config/normalised_yaml.js';
import type { SchemaProvider } from '../../config/schema.js';
import { buildLineIndex, parseYaml, yamlToValue } from '../../config/yaml_document.js';
import type { ComponentConfig } from '../../engine/context.js';

export interface MemberConfig {
  config: ComponentConfig;
  /** The sanitised YAML text that GET and the listing show. */
  stored: string;
}

/** `configPath` is where the member sits, e.g. `root.output.dynamic.outputs.foo`. */
export function readMemberBody(
  kind: 'input' | 'output',
  body: Buffer | string,
  configPath: string,
  schemas: SchemaProvider,
): MemberConfig {
  const parsed = parseYaml(typeof body === 'string' ? body : body.toString('utf8'));
  const config = normaliseComponent(
    kind,
    yamlToValue(parsed),
    { docPath: [], configPath },
    { provider: schemas, lines: buildLineIndex(parsed) },
  );
  return { config, stored: normalisedComponentYaml(kind, parsed, schemas) };
}

/** The stored form of a member declared in the static `inputs`/`outputs` map. */
export function staticMember(
  kind: 'input' | 'output',
  config: ComponentConfig,
  schemas: SchemaProvider,
): MemberConfig {
  return { config, stored: normalisedComponentYaml(kind, config.raw, schemas) };
}
