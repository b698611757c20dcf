// `decompress`: decompresses each message's content with a chosen algorithm.
import { type ComponentSpec, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { perMessage, processorErrorLog } from '../../engine/processor_helpers.js';
import { decompressor } from '../compression.js';

export interface DecompressConfig {
  algorithm: string;
}

export const spec: ComponentSpec<DecompressConfig, Processor> = {
  name: 'decompress',
  kind: 'processor',
  status: 'stable',
  categories: ['Parsing'],
  summary: 'Decompresses the content of each message with the chosen algorithm.',
  description:
    'Supported: `gzip`, `pgzip`, `zlib` and `flate` (raw DEFLATE). `bzip2`, `lz4` and `snappy` are accepted by the linter for compatibility but fail when the stream is built. A message that cannot be decompressed is flagged as failed and passes on unchanged.',
  fields: [
    field.string('algorithm', 'The decompression algorithm.', {
      options: ['bzip2', 'flate', 'gzip', 'lz4', 'pgzip', 'snappy', 'zlib'],
    }),
  ],
  examples: [
    {
      title: 'Gunzip each message',
      config: `input:
  generate:
    count: 1
    mapping: 'root = "hello world"'
pipeline:
  processors:
    - compress:
        algorithm: gzip
    - decompress:
        algorithm: gzip
output:
  stdout: {}
`,
    },
  ],
  build: (config, ctx) => {
    const decompress = decompressor(config.algorithm);
    const logError = processorErrorLog(ctx.logger);
    return {
      process: perMessage(
        (msg) => {
          const out = msg.copy();
          out.setBytes(decompress(msg.bytes()));
          return out;
        },
        { onError: (err) => logError(new Error(`failed to decompress message: ${err.message}`)) },
      ),
      close: async () => {},
    };
  },
};
