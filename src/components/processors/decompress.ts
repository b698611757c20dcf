// `decompress`: decompresses each message's content with a chosen algorithm.
import { decompressedLimit } from '../../base/decompression/limit.js';
import { defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { ConfigError } from '../../engine/errors.js';
import { perMessage, processorErrorLog } from '../../engine/processor_helpers.js';
import { DECOMPRESS_ALGORITHMS, decompressor } from '../compression.js';

export const spec = defineComponent({
  name: 'decompress',
  kind: 'processor',
  status: 'stable',
  categories: ['Parsing'],
  summary: 'Decompresses the content of each message with the chosen algorithm.',
  description:
    'Algorithms: `gzip`, `pgzip`, `zlib`, `flate` (raw DEFLATE), `bzip2` (a .bz2 stream, concatenated streams included), `lz4` (the LZ4 frame format, as the `lz4` command line tool writes; checksums in the frame are not verified) and `snappy` (the raw snappy block format, not the framed stream). A message that cannot be decompressed (corrupt, truncated, or larger than the decompression limit: 256 MiB, or `NEKTON_MAX_DECOMPRESSED_BYTES`) is flagged as failed and passes on unchanged. bzip2 and lz4 are decoded in slices that let other work run, gzip, zlib and flate on the thread pool.',
  fields: [field.enum('algorithm', 'The decompression algorithm.', DECOMPRESS_ALGORITHMS)],
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
  build: async (config, ctx): Promise<Processor> => {
    const decompress = await decompressor(config.algorithm, decompressedLimit(), ctx.signal).catch(
      (err: Error) => {
        // One line naming the field (root.pipeline.processors.0.compress.algorithm: ...), no stack.
        throw new ConfigError(`${ctx.path}.decompress.${err.message}`);
      },
    );
    const logError = processorErrorLog(ctx.logger);
    const each = perMessage(
      async (msg) => {
        const out = msg.copy();
        out.setBytes(await decompress(msg.bytes()));
        return out;
      },
      { onError: (err) => logError(new Error(`failed to decompress message: ${err.message}`)) },
    );
    return {
      // Work cut short by a shutdown fails the batch (to be redelivered), rather than passing its
      // messages on flagged as undecompressable.
      process: async (batch) => {
        const out = await each(batch);
        if (ctx.signal.aborted) throw new Error('processor stopped');
        return out;
      },
      close: async () => {},
    };
  },
});
