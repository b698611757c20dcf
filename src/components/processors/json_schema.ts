// `json_schema`: checks each message against a JSON Schema; a message that does not match is
// flagged as failed (its content never changes).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Ajv as AjvClass, ValidateFunction } from 'ajv';
import { type ConfigOf, defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { ConfigError, errorMessage } from '../../engine/errors.js';
import { perMessage } from '../../engine/processor_helpers.js';
import type { Message } from '../../message/message.js';
import { describeErrors } from './json_schema_errors.js';

const fields = [
  field.string('schema', 'The schema to apply, as JSON. Use either this or `schema_path`.', {
    optional: true,
  }),
  field.string(
    'schema_path',
    'Where to read the schema from (`file://` or `http://`). Use either this or `schema`.',
    {
      optional: true,
      examples: ['file://path/to/schema.json'],
    },
  ),
] as const;

const NO_SCHEMA = 'either schema or schema_path must be provided';
const BAD_SCHEMA_PATH = 'invalid schema_path provided, must start with file:// or http://';
const isSchemaUrl = (path: string) => path.startsWith('file://') || path.startsWith('http://');

const require = createRequire(import.meta.url);
// Required on first use: ajv costs ~40 ms of start-up for configs that never validate.
const loadAjv = (): typeof AjvClass => (require('ajv') as { Ajv: typeof AjvClass }).Ajv;

/** Compiles a schema once. Draft-06 and draft-07 are understood; draft-04 is read as draft-07. */
export function compileSchema(text: string): ValidateFunction {
  let schema: Record<string, unknown>;
  try {
    schema = JSON.parse(text) as Record<string, unknown>;
  } catch (err) {
    throw new ConfigError(`failed to load JSON schema definition: ${errorMessage(err)}`);
  }
  if (typeof schema.$schema === 'string' && schema.$schema.includes('draft-04')) {
    const { $schema: _dropped, ...rest } = schema;
    schema = rest;
  }
  // gojsonschema reports every failure and ignores keywords it does not know.
  const Ajv = loadAjv();
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false, logger: false });
  ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json'));
  try {
    return ajv.compile(schema);
  } catch (err) {
    throw new ConfigError(`failed to load JSON schema definition: ${errorMessage(err)}`);
  }
}

async function loadSchemaText(config: ConfigOf<typeof fields>): Promise<string> {
  const path = config.schema_path ?? '';
  if (path !== '') {
    if (path.startsWith('file://')) {
      try {
        return await readFile(path.slice('file://'.length), 'utf8');
      } catch (err) {
        throw new ConfigError(`failed to load JSON schema definition: ${errorMessage(err)}`);
      }
    }
    if (path.startsWith('http://')) {
      const res = await fetch(path);
      if (!res.ok)
        throw new ConfigError(`failed to load JSON schema definition: ${path} returned ${res.status}`);
      return res.text();
    }
    throw new ConfigError(BAD_SCHEMA_PATH);
  }
  if (config.schema) return config.schema;
  throw new ConfigError(NO_SCHEMA);
}

export function jsonSchemaProcessor(validate: ValidateFunction): Processor {
  const check = (msg: Message): Message => {
    if (validate(msg.structured())) return msg;
    throw new Error(describeErrors(validate.errors ?? []));
  };
  return { process: perMessage(check), close: async () => {} };
}

export const spec = defineComponent({
  name: 'json_schema',
  kind: 'processor',
  status: 'stable',
  categories: ['Mapping'],
  summary: 'Checks messages against a JSON Schema; those that do not match are flagged as failed.',
  description: `The payload never changes. A message that is not JSON or does not match the schema carries on with its error flag set, the error listing every mismatch ("<field> <problem>", one per line), so it can be handled with \`catch\`, \`try\` or \`switch\`.

Give the schema inline with \`schema\` or from a \`file://\` or \`http://\` address with \`schema_path\`. Drafts 06 and 07 are supported (draft-04 schemas are read as draft-07); \`format\` is not checked.`,
  fields,
  lint: (config) => {
    const path = config.schema_path ?? '';
    if (path !== '') return isSchemaUrl(path) ? [] : [BAD_SCHEMA_PATH];
    return config.schema ? [] : [NO_SCHEMA];
  },
  examples: [
    {
      title: 'Drop messages that do not match a schema',
      config: `input:
  generate:
    count: 2
    interval: ''
    mapping: 'root = {"firstName": "John", "age": if counter() % 2 == 0 { 30 } else { -21 }}'
pipeline:
  processors:
    - json_schema:
        schema: |
          {
            "type": "object",
            "properties": {
              "firstName": { "type": "string" },
              "age": { "type": "integer", "minimum": 0 }
            }
          }
    - catch:
        - log:
            level: ERROR
            message: 'schema validation failed: \${! error() }'
        - mapping: 'root = deleted()'
output:
  stdout: {}
`,
    },
  ],
  build: async (config): Promise<Processor> =>
    jsonSchemaProcessor(compileSchema(await loadSchemaText(config))),
});
