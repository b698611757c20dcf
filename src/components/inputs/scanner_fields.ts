// The fields by which the file and stdin inputs choose how to split their bytes: the `scanner`
// and the deprecated `codec`/`max_buffer` it replaced.
import { type ConfigOf, field } from '../../config/spec.js';
import type { BuildContext } from '../../engine/context.js';
import { buildScanner } from '../scanners/build.js';
import { codecToScanner } from '../scanners/codec.js';
import { type Scanner, scannerField } from '../scanners/scanner.js';

export const CODEC_OPTIONS = [
  'auto',
  'all-bytes',
  'avro-ocf:marshaler=x',
  'chunker:x',
  'csv',
  'csv:x',
  'csv-safe',
  'csv-safe:x',
  'delim:x',
  'gzip',
  'pgzip',
  'lines',
  'multipart',
  'regex:(?m)^\\d\\d:\\d\\d:\\d\\d',
  'skipbom',
  'tar',
];

export function scannerFields() {
  return [
    field.string('codec', 'Deprecated: use `scanner`. How the bytes are split into messages.', {
      optional: true,
      deprecated: true,
      options: CODEC_OPTIONS,
    }),
    field.int('max_buffer', 'Deprecated: the largest message the `codec` accepts.', {
      default: 1000000,
      deprecated: true,
    }),
    scannerField('scanner', 'How the bytes are split into messages; one line per message by default.', {
      default: { lines: {} },
      optional: true,
    }),
  ] as const;
}

export type ScannerFieldsConfig = ConfigOf<ReturnType<typeof scannerFields>>;

/**
 * The scanner for a source named `name`. Builds once and reuses it, except for `codec: auto`
 * whose choice depends on each file's extension.
 */
export async function scannerResolver(
  config: ScannerFieldsConfig,
  ctx: BuildContext,
  /** Where these fields sit, for error messages: `root.input.file`. */
  at: string,
): Promise<(name: string) => Promise<Scanner>> {
  const codec = config.codec;
  if (codec?.split('/').includes('auto')) {
    return (name) => buildScanner(codecToScanner(codec, config.max_buffer, name), ctx, `${at}.codec`);
  }
  // Built now so a bad scanner config fails the build, not the first read.
  const built = await buildScanner(
    codec ? codecToScanner(codec, config.max_buffer) : (config.scanner ?? { lines: {} }),
    ctx,
    codec ? `${at}.codec` : `${at}.scanner`,
  );
  return async () => built;
}
