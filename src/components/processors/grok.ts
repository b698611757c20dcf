// `grok`: parses messages with grok expressions into JSON objects of the named captures.
import { readFile, stat } from 'node:fs/promises';
import type { Logger } from 'pino';
import { filesOfPattern } from '../../config/path_patterns.js';
import { defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { ConfigError, errorMessage } from '../../engine/errors.js';
import { perMessage, processorErrorLog } from '../../engine/processor_helpers.js';
import { type CompiledGrok, PatternSet, parsePatternFile, setPath } from './grok_compile.js';
import { DEFAULT_GROK_PATTERNS } from './grok_patterns.js';

let defaults: Map<string, string> | undefined;
function defaultPatterns(): Map<string, string> {
  if (!defaults) {
    defaults = new Map();
    parsePatternFile(DEFAULT_GROK_PATTERNS, defaults);
  }
  return defaults;
}

interface GrokOptions {
  expressions: readonly string[];
  definitions: Map<string, string>;
  namedOnly: boolean;
  useDefaults: boolean;
  removeEmpty: boolean;
}

/** Compiles every expression; throws the reference's messages. */
export function compileGroks(o: GrokOptions): CompiledGrok[] {
  const set = new PatternSet(o.namedOnly);
  try {
    if (o.useDefaults) set.addAll(defaultPatterns());
    set.addAll(o.definitions);
  } catch (err) {
    throw new ConfigError(`failed to create grok compiler: ${errorMessage(err)}`);
  }
  return o.expressions.map((expression) => {
    try {
      return set.compile(expression, o.removeEmpty);
    } catch (err) {
      throw new ConfigError(`failed to compile Grok pattern '${expression}': ${errorMessage(err)}`);
    }
  });
}

function parse(groks: readonly CompiledGrok[], text: string, logger: Logger): Record<string, unknown> {
  let values = new Map<string, unknown>();
  for (const g of groks) {
    try {
      values = g.parseTyped(text);
    } catch (err) {
      logger.debug(`Failed to parse body: ${errorMessage(err)}`);
      values = new Map();
      continue;
    }
    if (values.size > 0) break;
  }
  if (values.size === 0) throw new Error('no pattern matches found');
  const out: Record<string, unknown> = {};
  for (const [k, v] of values) setPath(out, k, v);
  return out;
}

const fields = [
  field.array(
    field.string(
      'expressions',
      'One or more Grok expressions to attempt against incoming messages. The first expression to match at least one value will be used to form a result.',
    ),
  ),
  field.map(
    field.string(
      'pattern_definitions',
      'A map of pattern definitions that can be referenced within `patterns`.',
      {
        default: {},
      },
    ),
  ),
  field.array(
    field.string(
      'pattern_paths',
      'A list of paths to load Grok patterns from. This field supports wildcards, including super globs (double star).',
      { default: [] },
    ),
  ),
  field.bool('named_captures_only', 'Whether to only capture values from named patterns.', {
    default: true,
    advanced: true,
  }),
  field.bool('use_default_patterns', 'Whether to use a [default set of patterns](#default-patterns).', {
    default: true,
    advanced: true,
  }),
  field.bool('remove_empty_values', 'Whether to remove values that are empty from the resulting structure.', {
    default: true,
    advanced: true,
  }),
] as const;

export const spec = defineComponent({
  name: 'grok',
  kind: 'processor',
  status: 'stable',
  categories: ['Parsing'],
  summary:
    'Parses messages into a structured format by attempting to apply a list of Grok expressions, the first expression to result in at least one value replaces the original message with a JSON object containing the values.',
  description: `Type hints within patterns are respected, therefore with the pattern \`%{WORD:first},%{INT:second:int}\` and a payload of \`foo,1\` the resulting payload would be \`{"first":"foo","second":1}\`. A field name with dots (\`%{WORD:user.name}\`) makes nested objects.

A message that no expression matches (or whose typed values do not convert) carries on unchanged, flagged with the error \`no pattern matches found\`. An expression that refers to an unknown pattern, or whose regular expression does not compile, does not lint (when it needs no \`pattern_paths\`) and does not build.

## Performance

Expressions compile to nekton's regular expression engine with RE2 syntax, which runs in time linear to the size of the input (as Go's RE2 in the reference), so a hostile message cannot make a pattern backtrack for ever.

## Default patterns

The default set is the reference's (the logstash patterns, rewritten for RE2): \`USERNAME\`, \`INT\`, \`NUMBER\`, \`WORD\`, \`NOTSPACE\`, \`DATA\`, \`GREEDYDATA\`, \`QUOTEDSTRING\`, \`UUID\`, \`MAC\`, \`IP\`, \`IPV4\`, \`IPV6\`, \`HOSTNAME\`, \`IPORHOST\`, \`PATH\`, \`URI\`, \`MONTH\`, \`DAY\`, \`YEAR\`, \`TIME\`, \`TIMESTAMP_ISO8601\`, \`HTTPDATE\`, \`SYSLOGBASE\`, \`COMMONAPACHELOG\`, \`COMBINEDAPACHELOG\`, \`HTTPD_ERRORLOG\`, \`LOGLEVEL\` and the patterns they are made of.`,
  fields,
  examples: [
    {
      title: 'VPC Flow Logs',
      config: `input:
  generate:
    count: 1
    mapping: 'root = "2 123456789010 eni-1235b8ca123456789 172.31.16.139 172.31.16.21 20641 22 6 20 4249 1418530010 1418530070 ACCEPT OK"'
pipeline:
  processors:
    - grok:
        expressions:
          - '%{VPCFLOWLOG}'
        pattern_definitions:
          VPCFLOWLOG: '%{NUMBER:version:int} %{NUMBER:accountid} %{NOTSPACE:interfaceid} %{NOTSPACE:srcaddr} %{NOTSPACE:dstaddr} %{NOTSPACE:srcport:int} %{NOTSPACE:dstport:int} %{NOTSPACE:protocol:int} %{NOTSPACE:packets:int} %{NOTSPACE:bytes:int} %{NUMBER:start:int} %{NUMBER:end:int} %{NOTSPACE:action} %{NOTSPACE:logstatus}'
output:
  stdout: {}
`,
    },
  ],
  lint: (config) => {
    // Patterns from files are only known when the stream is built.
    if (config.pattern_paths.length > 0) return [];
    try {
      compileGroks({
        expressions: config.expressions,
        definitions: new Map(Object.entries(config.pattern_definitions)),
        namedOnly: config.named_captures_only,
        useDefaults: config.use_default_patterns,
        removeEmpty: config.remove_empty_values,
      });
      return [];
    } catch (err) {
      return [errorMessage(err)];
    }
  },
  build: async (config, ctx): Promise<Processor> => {
    const definitions = new Map(Object.entries(config.pattern_definitions));
    for (const path of config.pattern_paths) {
      try {
        // A directory means every file in it; a plain path must exist.
        const pattern = (await stat(path).catch(() => null))?.isDirectory() ? `${path}/*` : path;
        const files = await filesOfPattern(pattern);
        if (files.length === 0) throw new Error('no such file or directory');
        for (const file of files) parsePatternFile(await readFile(file, 'utf8'), definitions);
      } catch (err) {
        throw new ConfigError(`failed to parse patterns from path '${path}': ${errorMessage(err)}`);
      }
    }
    const groks = compileGroks({
      expressions: config.expressions,
      definitions,
      namedOnly: config.named_captures_only,
      useDefaults: config.use_default_patterns,
      removeEmpty: config.remove_empty_values,
    });
    return {
      process: perMessage(
        (msg) => {
          const out = msg.copy();
          out.setStructured(parse(groks, msg.text(), ctx.logger));
          return out;
        },
        { onError: processorErrorLog(ctx.logger) },
      ),
      close: async () => {},
    };
  },
});
