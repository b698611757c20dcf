// The `decompress` scanner: inflates the stream, then hands it to `into`.
import { Readable, type Transform } from 'node:stream';
import { createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import type { ByteQueue, ChunkDecoder } from '../../base/decompression/byte_queue.js';
import { bzip2Decoder } from '../../base/decompression/bzip2.js';
import { OutputBudget } from '../../base/decompression/limit.js';
import { lz4Decoder } from '../../base/decompression/lz4.js';
import { defineComponent, field } from '../../config/spec.js';
import { ConfigError } from '../../engine/errors.js';
import { decodeStream } from '../decompression/drive.js';
import { buildScanner } from './build.js';
import { type ByteSource, type Scanner, scannerField } from './scanner.js';

// Decoded as the bytes arrive.
const STREAMED = {
  gzip: createGunzip,
  pgzip: createGunzip,
  zlib: createInflate,
  flate: createInflateRaw,
} as const;

// Decoded block by block as the bytes arrive, by nekton's drivers around the pure-JS decoders.
const BLOCKWISE: Record<string, (queue: ByteQueue, budget: OutputBudget) => ChunkDecoder> = {
  bzip2: bzip2Decoder,
  lz4: lz4Decoder,
};

// The reference's other names. Its snappy here is the *framed* stream format (snappy.NewReader),
// which no acceptable pure-JS package decodes; zstd has no pure-JS decoder in nekton either.
const UNSUPPORTED: Record<string, string> = {
  snappy: 'the framed snappy stream format has no pure-JavaScript decoder in nekton',
  zstd: 'nekton has no zstd decoder',
};

const ALGORITHMS = [...Object.keys(STREAMED), ...Object.keys(BLOCKWISE), ...Object.keys(UNSUPPORTED)];

function streamed(create: () => Transform): (source: ByteSource) => ByteSource {
  return (source) => Readable.from(source, { objectMode: false }).pipe(create());
}

/**
 * The stream as a whole has no size limit (a long log file may inflate to gigabytes); the `into`
 * scanner bounds what it holds (`max_buffer_size`), and decoding pauses while it is not read.
 */
function blockwise(
  decoder: (queue: ByteQueue, budget: OutputBudget) => ChunkDecoder,
): (source: ByteSource) => ByteSource {
  return (source) =>
    decodeStream(source, (queue) => decoder(queue, new OutputBudget(Number.POSITIVE_INFINITY)));
}

export function decompress(inflate: (source: ByteSource) => ByteSource, into: Scanner): Scanner {
  return (source, details) => into(inflate(source), details);
}

async function inflater(algorithm: string, at: string): Promise<(source: ByteSource) => ByteSource> {
  if (algorithm in STREAMED) return streamed(STREAMED[algorithm as keyof typeof STREAMED]);
  const decoder = BLOCKWISE[algorithm];
  if (decoder) return blockwise(decoder);
  const why = UNSUPPORTED[algorithm] ?? `expected one of ${ALGORITHMS.join(', ')}`;
  throw new ConfigError(`${at}.decompress.algorithm: ${algorithm} is not supported: ${why}`);
}

export const spec = defineComponent({
  name: 'decompress',
  kind: 'scanner',
  status: 'stable',
  summary: 'Decompresses the stream, then scans the result with another scanner.',
  description:
    'Algorithms: `gzip`, `pgzip`, `zlib`, `flate`, `bzip2` and `lz4` (the LZ4 frame format) are decoded as the bytes arrive, no faster than the `into` scanner reads them, so memory stays bounded by what that scanner holds (`max_buffer_size` for `lines` and `re_match`). Corrupt or truncated input fails the stream. `snappy` (here the framed snappy stream format) and `zstd` are accepted by the linter, as the reference names them, but fail when the stream is built.',
  fields: [
    field.string(
      'algorithm',
      `The compression of the stream, one of ${ALGORITHMS.map((a) => `\`${a}\``).join(', ')}.`,
      { examples: ['gzip'] },
    ),
    scannerField('into', 'The scanner that reads the decompressed bytes.', {
      default: { to_the_end: {} },
    }),
  ],
  lint: (config) =>
    ALGORITHMS.includes(config.algorithm)
      ? []
      : [`unknown algorithm ${config.algorithm}, expected one of ${ALGORITHMS.join(', ')}`],
  examples: [
    {
      title: 'Gzipped log files, one message per line',
      config: `input:
  file:
    paths: [ ./logs/*.log.gz ]
    scanner:
      decompress:
        algorithm: gzip
        into:
          lines: {}
output:
  stdout: {}
`,
    },
  ],
  build: async (config, ctx) =>
    decompress(
      await inflater(config.algorithm, ctx.path),
      await buildScanner(config.into, ctx, `${ctx.path}.decompress.into`),
    ),
});
