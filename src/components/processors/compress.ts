// `compress`: compresses each message's content with a chosen algorithm.
import { defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { ConfigError } from '../../engine/errors.js';
import { perMessage, processorErrorLog } from '../../engine/processor_helpers.js';
import { COMPRESS_ALGORITHMS, compressor } from '../compression.js';

export const spec = defineComponent({
  name: 'compress',
  kind: 'processor',
  status: 'stable',
  categories: ['Parsing'],
  summary: 'Compresses the content of each message with the chosen algorithm.',
  description:
    'Algorithms: `gzip`, `pgzip` (written as plain gzip), `zlib`, `flate` (raw DEFLATE), `lz4` (the LZ4 frame format, as the `lz4` command line tool writes) and `snappy` (the raw snappy block format, not the framed stream). A message that cannot be compressed is flagged as failed and passes on unchanged.',
  fields: [
    field.enum('algorithm', 'The compression algorithm.', COMPRESS_ALGORITHMS),
    field.int(
      'level',
      'The compression level: -1 the default, 0 none, 1 fastest to 9 smallest. `snappy` has no levels, and `lz4` is always written with its fast encoder (any LZ4 reader decodes it the same).',
      {
        default: -1,
      },
    ),
  ],
  examples: [
    {
      title: 'Gzip each message',
      config: `input:
  generate:
    count: 1
    mapping: 'root = "hello world"'
pipeline:
  processors:
    - compress:
        algorithm: gzip
        level: 9
output:
  drop: {}
`,
    },
  ],
  build: async (config, ctx): Promise<Processor> => {
    const compress = await compressor(config.algorithm, config.level).catch((err: Error) => {
      // One line naming the field (root.pipeline.processors.0.compress.algorithm: ...), no stack.
      throw new ConfigError(`${ctx.path}.compress.${err.message}`);
    });
    const logError = processorErrorLog(ctx.logger);
    return {
      process: perMessage(
        (msg) => {
          const out = msg.copy();
          out.setBytes(compress(msg.bytes()));
          return out;
        },
        { onError: (err) => logError(new Error(`failed to compress message: ${err.message}`)) },
      ),
      close: async () => {},
    };
  },
});
