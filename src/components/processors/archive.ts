// `archive`: joins every message of a batch into one message, in a chosen format.
import { defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { ConfigError } from '../../engine/errors.js';
import { flagged, processorErrorLog } from '../../engine/processor_helpers.js';
import type { Batch } from '../../message/message.js';
import { ARCHIVE_FORMATS, archiverFor } from './archive_formats.js';

export const spec = defineComponent({
  name: 'archive',
  kind: 'processor',
  status: 'stable',
  categories: ['Parsing', 'Utility'],
  summary:
    'Archives all the messages of a batch into a single message according to the selected archive format.',
  description: `Formats:

- \`binary\`: the reference's binary blob of message parts (a big-endian 32-bit count, then each part's 32-bit length and bytes).
- \`concatenate\`: the raw contents of each message joined into one.
- \`json_array\`: each message parsed as JSON and appended to an array, which becomes the content.
- \`lines\`: the raw contents joined with a line break between each one.
- \`tar\`: a unix tape archive with one file per message.
- \`zip\`: a zip file with one deflated file per message.

Tar and zip treat each message as a file with a path: \`path\` is interpolated per message to name it (so use something unique per message, e.g. \`\${! count("files") }.txt\`). Other formats ignore it.

The archived message adopts the metadata of the _first_ message of the batch. It works across a batch, so batch the messages first (at the input, or with a \`batching\` policy). When a batch cannot be archived (a message is not JSON, for \`json_array\`), every message of it passes on unchanged, flagged as failed. To reverse the process use \`unarchive\` (then \`split\` to handle each message alone).`,
  fields: [
    field.enum('format', 'The archiving format to apply.', ARCHIVE_FORMATS),
    field.interpolated('path', 'The path to set for each message in the archive (when applicable).', {
      default: '',
      examples: [
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a Bloblang interpolation, not a JS template
        '${!count("files")}-${!timestamp_unix_nano()}.txt',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a Bloblang interpolation, not a JS template
        '${!meta("kafka_key")}-${!json("id")}.json',
      ],
    }),
  ],
  examples: [
    {
      title: 'Tar archive',
      config: `input:
  generate:
    count: 3
    batch_size: 3
    interval: ''
    mapping: 'root = {"doc": {"id": uuid_v4(), "body": "hello world"}}'
pipeline:
  processors:
    - archive:
        format: tar
        path: \${! json("doc.id") }.json
output:
  drop: {}
`,
    },
  ],
  build: (config, ctx): Processor => {
    let archiver: ReturnType<typeof archiverFor>;
    try {
      archiver = archiverFor(config.format);
    } catch (err) {
      throw new ConfigError(`${ctx.path}.archive.format: ${(err as Error).message}`);
    }
    const path = config.path;
    const logError = processorErrorLog(ctx.logger);
    return {
      process: async (batch: Batch): Promise<Batch[]> => {
        if (batch.length === 0) return [];
        const names = (i: number): string => {
          try {
            return path.render(batch, i);
          } catch (err) {
            logError(new Error(`name interpolation error: ${(err as Error).message}`));
            return '';
          }
        };
        try {
          const archived = await archiver(batch, names);
          const out = (batch[0] as (typeof batch)[0]).copy();
          if ('bytes' in archived) out.setBytes(archived.bytes);
          else out.setStructured(archived.value);
          return [[out]];
        } catch (err) {
          // As the reference: the whole batch goes on unchanged, every message flagged.
          const error = err instanceof Error ? err : new Error(String(err));
          logError(new Error(`failed to create archive: ${error.message}`));
          const failed = batch.map((msg) => flagged(msg, error));
          return [failed];
        }
      },
      close: async () => {},
    };
  },
});
