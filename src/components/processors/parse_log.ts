// `parse_log`: parses syslog lines (RFC 5424 or RFC 3164) into structured documents.
import { defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { ConfigError } from '../../engine/errors.js';
import { perMessage, processorErrorLog } from '../../engine/processor_helpers.js';
import { parseRfc3164 } from './syslog_rfc3164.js';
import { parseRfc5424 } from './syslog_rfc5424.js';

/** A time zone name as Go's time.LoadLocation takes it, or undefined when it is unknown. */
function zoneName(name: string): string | undefined {
  if (name === '' || name === 'UTC') return '';
  if (name === 'Local') return Intl.DateTimeFormat().resolvedOptions().timeZone;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return name;
  } catch {
    return undefined;
  }
}

interface YearZone {
  year_problem?: string;
  zone_problem?: string;
}

function check(format: string, defaultYear: string, defaultZone: string): YearZone {
  const out: YearZone = {};
  if (format !== 'syslog_rfc3164') return out;
  if (defaultYear !== 'current' && defaultYear !== '' && !/^[+-]?\d+$/.test(defaultYear))
    out.year_problem = `failed to convert year ${defaultYear} into integer:  strconv.Atoi: parsing "${defaultYear}": invalid syntax`;
  if (zoneName(defaultZone) === undefined)
    out.zone_problem = `failed to lookup timezone ${defaultZone} - unknown time zone ${defaultZone}`;
  return out;
}

export const spec = defineComponent({
  name: 'parse_log',
  kind: 'processor',
  status: 'stable',
  categories: ['Parsing'],
  summary:
    'Parses common log formats into structured data. This is easier and often much faster than `grok`.',
  description: `A line that does not follow its format carries on unchanged, flagged with the parser's error (which names the column where parsing stopped), whatever \`best_effort\` says: as in the reference, a partial parse is never used.

## Formats

### \`syslog_rfc5424\`

Attempts to parse a log following the [Syslog RFC5424](https://tools.ietf.org/html/rfc5424) spec. The resulting structured document may contain any of the following fields:

- \`message\` (string)
- \`timestamp\` (string, RFC3339)
- \`facility\` (int)
- \`severity\` (int)
- \`priority\` (int)
- \`version\` (int)
- \`hostname\` (string)
- \`procid\` (string)
- \`appname\` (string)
- \`msgid\` (string)
- \`structureddata\` (object)

### \`syslog_rfc3164\`

Attempts to parse a log following the [Syslog rfc3164](https://tools.ietf.org/html/rfc3164) spec. The resulting structured document may contain any of the following fields:

- \`message\` (string)
- \`timestamp\` (string, RFC3339)
- \`facility\` (int)
- \`severity\` (int)
- \`priority\` (int)
- \`hostname\` (string)
- \`procid\` (string)
- \`appname\` (string)
- \`msgid\` (string)

Timestamps of RFC 3164 lines carry no year and no zone: the time is read as UTC in \`default_year\`, then shown in \`default_timezone\`.

## Codecs

Currently the only supported structured data codec is \`json\`.`,
  fields: [
    field.enum('format', 'A common log [format](#formats) to parse.', ['syslog_rfc5424', 'syslog_rfc3164']),
    field.bool('best_effort', 'Still returns partially parsed messages even if an error occurs.', {
      default: true,
      advanced: true,
    }),
    field.bool(
      'allow_rfc3339',
      'Also accept timestamps in rfc3339 format while parsing. Applicable to format `syslog_rfc3164`.',
      { default: true, advanced: true },
    ),
    field.string(
      'default_year',
      'Sets the strategy used to set the year for rfc3164 timestamps. Applicable to format `syslog_rfc3164`. When set to `current` the current year will be set, when set to an integer that value will be used. Leave this field empty to not set a default year at all.',
      { default: 'current', advanced: true },
    ),
    field.string(
      'default_timezone',
      'Sets the strategy to decide the timezone for rfc3164 timestamps. Applicable to format `syslog_rfc3164`. This value should follow the [time.LoadLocation](https://golang.org/pkg/time/#LoadLocation) format.',
      { default: 'UTC', advanced: true },
    ),
    field.string('codec', 'Deprecated: the only codec is `json`.', { deprecated: true }),
  ],
  examples: [
    {
      title: 'Syslog lines to JSON',
      config: `input:
  generate:
    count: 1
    mapping: 'root = "<165>1 2003-10-11T22:14:15.003Z mymachine.example.com evntslog - ID47 [exampleSDID@32473 iut=\\"3\\"] An application event"'
pipeline:
  processors:
    - parse_log:
        format: syslog_rfc5424
output:
  stdout: {}
`,
    },
  ],
  lint: (config) => {
    const c = check(config.format, config.default_year, config.default_timezone);
    return [c.year_problem, c.zone_problem].filter((p): p is string => p !== undefined);
  },
  build: (config, ctx): Processor => {
    const c = check(config.format, config.default_year, config.default_timezone);
    const problem = c.year_problem ?? c.zone_problem;
    if (problem) throw new ConfigError(problem);
    const year =
      config.default_year === 'current'
        ? new Date().getUTCFullYear()
        : config.default_year === ''
          ? 0
          : Number(config.default_year);
    const zone = zoneName(config.default_timezone) ?? '';
    const parse =
      config.format === 'syslog_rfc5424'
        ? (b: Buffer) => parseRfc5424(b)
        : (b: Buffer) => parseRfc3164(b, { allowRfc3339: config.allow_rfc3339, year, zone });
    return {
      process: perMessage(
        (msg) => {
          const bytes = msg.bytes();
          const doc = parse(
            Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
          );
          const out = msg.copy();
          out.setStructured(doc);
          return out;
        },
        { onError: processorErrorLog(ctx.logger) },
      ),
      close: async () => {},
    };
  },
});
