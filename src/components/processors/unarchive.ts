// `unarchive`: breaks each message into many, one per item of the archive or document it holds.
import { decompressedLimit } from '../../base/decompression/limit.js';
import { defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { ConfigError } from '../../engine/errors.js';
import { perMessage, processorErrorLog } from '../../engine/processor_helpers.js';
import { type Unarchiver, unarchiverFor } from './unarchive_formats.js';

export const UNARCHIVE_FORMATS = [
  'binary',
  'csv',
  'csv:x',
  'json_array',
  'json_documents',
  'json_map',
  'lines',
  'tar',
  'zip',
] as const;

export const spec = defineComponent({
  name: 'unarchive',
  kind: 'processor',
  status: 'stable',
  categories: ['Parsing', 'Utility'],
  summary:
    'Unarchives messages according to the selected archive format into multiple messages within a batch.',
  description: `The new messages replace the original in its batch, in order; follow with \`split\` to handle each alone. A message that fails to unarchive (not in the format) passes on unchanged, flagged as failed, for \`catch\` or \`try\` to handle.

Formats:

- \`binary\`: the reference's binary blob of message parts, as \`archive\` writes it.
- \`csv\`: a CSV file with a header row; each row becomes a JSON object keyed by the header. \`csv:x\` uses the single character \`x\` as delimiter instead of a comma (\`csv:;\`, or a tab).
- \`json_array\`: a JSON array; each element becomes a message.
- \`json_documents\`: a stream of concatenated JSON documents; each becomes a message.
- \`json_map\`: a JSON object; each value becomes a message, its key in the metadata field \`archive_key\` (in key order).
- \`lines\`: each line becomes a message (a trailing line break leaves an empty last message, as in the reference).
- \`tar\`: each file of a unix tape archive becomes a message.
- \`zip\`: each file of a zip archive becomes a message.

Metadata: every new message keeps the metadata of the original. For tar and zip the field \`archive_filename\` holds the file's name.

A zip may not inflate to more than the decompression limit (256 MiB, or \`NEKTON_MAX_DECOMPRESSED_BYTES\`) in all, so a zip bomb fails its message rather than filling memory; a file whose checksum does not match fails it too.`,
  fields: [field.string('format', 'The unarchiving format to apply.', { options: [...UNARCHIVE_FORMATS] })],
  examples: [
    {
      title: 'One message per element of a JSON array',
      config: `input:
  generate:
    count: 1
    interval: ''
    mapping: 'root = [{"id": 1}, {"id": 2}, {"id": 3}]'
pipeline:
  processors:
    - unarchive:
        format: json_array
    - split: {}
output:
  stdout: {}
`,
    },
  ],
  lint: (config) => {
    try {
      unarchiverFor(config.format, decompressedLimit);
      return [];
    } catch (err) {
      return [`format: ${(err as Error).message}`];
    }
  },
  build: (config, ctx): Processor => {
    let unarchive: Unarchiver;
    try {
      unarchive = unarchiverFor(config.format, decompressedLimit);
    } catch (err) {
      // Also refused here for callers that build without linting first.
      throw new ConfigError(`${ctx.path}.unarchive.format: ${(err as Error).message}`);
    }
    const logError = processorErrorLog(ctx.logger);
    return {
      process: perMessage((msg) => unarchive(msg), {
        onError: (err) => logError(new Error(`failed to unarchive message part: ${err.message}`)),
      }),
      close: async () => {},
    };
  },
});
