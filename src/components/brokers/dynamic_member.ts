// Reading a dynamic member's config at run time: a POSTed body (YAML or JSON; no env
// interpolation, spec §6.4) or a static entry, with the stored form of §6.5. Unlike the reference,
// an unknown field is refused (400, as the streams API does) instead of silently dropped.
import { formatApiLint } from '../../config/lint.js';
import { lintComponentConfig } from '../../config/lint_config.js';
import { normaliseComponent } from '../../config/normalise.js';
import { normalisedComponentYaml } from '../../config/normalised_yaml.js';
import type { SchemaProvider } from '../../config/schema.js';
import { buildLineIndex, parseYaml, yamlToValue } from '../../config/yaml_document.js';
import type { ComponentConfig } from '../../engine/context.js';

export interface ParsedMember {
  config: ComponentConfig;
  /** The sanitised YAML text that GET and the listing show. */
  stored: string;
}

/** A member body naming fields its component does not have: 400 with `linting_errors`. */
export class UnknownMemberFields extends Error {
  constructor(readonly lints: string[]) {
    super(lints.join('\n'));
    this.name = 'UnknownMemberFields';
  }
}

// The lint messages that mean "this key is not part of the component" (spec §2.5's templates).
const UNKNOWN_FIELD = /^field .+ (not recognised|is invalid when the component type is )/;

/** `configPath` is where the member sits, e.g. `root.output.dynamic.outputs.foo`. */
export function readMemberBody(
  kind: 'input' | 'output',
  body: Buffer | string,
  configPath: string,
  schemas: SchemaProvider,
): ParsedMember {
  const parsed = parseYaml(typeof body === 'string' ? body : body.toString('utf8'));
  const unknown = lintComponentConfig(parsed, kind, { provider: schemas }).filter((l) =>
    UNKNOWN_FIELD.test(l.message),
  );
  if (unknown.length > 0) throw new UnknownMemberFields(unknown.map(formatApiLint));
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
): ParsedMember {
  return { config, stored: normalisedComponentYaml(kind, config.raw, schemas) };
}
