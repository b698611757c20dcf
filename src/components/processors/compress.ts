// `compress`: compresses each message's content with a chosen algorithm.
import { type ComponentSpec, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { perMessage, processorErrorLog } from '../../engine/processor_helpers.js';
import { compressor } from '../compression.js';

export interface CompressConfig {
  algorithm: string;
  level: number;
}

export const spec: ComponentSpec<CompressConfig, Processor> = {
  name: 'compress',
  kind: 'processor',
  status: 'stable',
  categories: ['Parsing'],
  summary: 'Compresses the content of each message with the chosen algorithm.',
  description:
    'Supported: `gzip`, `pgzip` (written as plain gzip), `zlib` and `flate` (raw DEFLATE). `lz4` and `snappy` are accepted by the linter for compatibility but fail when the stream is built. A message that cannot be compressed is flagged as failed and passes on unchanged.',
  fields: [
    field.string('algorithm', 'The compression algorithm.', {
      options: ['flate', 'gzip', 'lz4', 'pgzip', 'snappy', 'zlib'],
    }),
    field.int('level', 'The compression level: -1 the default, 0 none, 1 fastest to 9 smallest.', {
      default: -1,
    }),
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
  build: (config, ctx) => {
    const compress = compressor(config.algorithm, config.level);
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
};
