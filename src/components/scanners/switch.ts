// The `switch` scanner: picks a scanner per stream by matching the source name (e.g. a file path).
import { compileConfigPatterns } from '../../config/config_patterns.js';
import { defineRootComponent, field } from '../../config/spec.js';
import { ConfigError } from '../../engine/errors.js';
import { buildScanner } from './build.js';
import { type Scanner, scannerField } from './scanner.js';

const root = field.array(
  field.object('', 'Cases tried in order; the first whose `re_match_name` matches the source name is used.', [
    field.string(
      're_match_name',
      'A regular expression matched against the source name; absent matches every name.',
      {
        optional: true,
        regexp: true,
        examples: ['\\.json$'],
      },
    ),
    scannerField('scanner', 'The scanner used when this case matches.'),
  ]),
);

export const spec = defineRootComponent({
  name: 'switch',
  kind: 'scanner',
  status: 'stable',
  summary: 'Chooses a scanner per stream by the name of its source.',
  description:
    'Cases are tried in order against the source name (a file path, an object key); the first case whose `re_match_name` matches, or that has none, supplies the scanner. A source that no case matches is an error.',
  root,
  examples: [
    {
      title: 'CSV and JSON-lines files from one directory',
      config: `input:
  file:
    paths: [ ./in/* ]
    scanner:
      switch:
        - re_match_name: '\\.csv$'
          scanner:
            csv: {}
        - scanner:
            lines: {}
output:
  stdout: {}
`,
    },
  ],
  build: async (cases, ctx): Promise<Scanner> => {
    const built = await Promise.all(
      cases.map(async (c, i) => ({
        pattern:
          c.re_match_name === undefined
            ? null
            : compileConfigPatterns([c.re_match_name], 'switch: re_match_name')[0],
        scanner: await buildScanner(c.scanner, ctx, `${ctx.path}.switch.${i}.scanner`),
      })),
    );
    const scanSwitch: Scanner = (source, details) => {
      const name = details.name ?? '';
      const match = built.find((c) => c.pattern === null || c.pattern.test(name));
      if (!match)
        throw new ConfigError(`no switch scanner case matches the source name ${JSON.stringify(name)}`);
      return match.scanner(source, details);
    };
    return scanSwitch;
  },
});
