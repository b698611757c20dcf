// The `decompress` scanner: inflates the stream, then hands it to `into`.
import { Readable, type Transform } from 'node:stream';
import { createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import { field } from '../../config/spec.js';
import { ConfigError } from '../../engine/errors.js';
import { type Decompressor, decompressor } from '../compression.js';
import { buildScanner } from './build.js';
import { asBuffer, type ByteSource, type Scanner, type ScannerSpec } from './scanner.js';

export interface DecompressConfig {
  algorithm: string;
  into: unknown;
}

// Decoded as the bytes arrive.
const STREAMED = {
  gzip: createGunzip,
  pgzip: createGunzip,
  zlib: createInflate,
  flate: createInflateRaw,
} as const;

// Their pure-JS decoders take a whole buffer, so the compressed stream is read to its end first.
const WHOLE = ['bzip2', 'lz4'];

// The reference's other names. Its snappy here is the *framed* stream format (snappy.NewReader),
// which no acceptable pure-JS package decodes; zstd has no pure-JS decoder in nekton either.
const UNSUPPORTED: Record<string, string> = {
  snappy: 'the framed snappy stream format has no pure-JavaScript decoder in nekton',
  zstd: 'nekton has no zstd decoder',
};

const ALGORITHMS = [...Object.keys(STREAMED), ...WHOLE, ...Object.keys(UNSUPPORTED)];

function streamed(create: () => Transform): (source: ByteSource) => ByteSource {
  return (source) => Readable.from(source, { objectMode: false }).pipe(create());
}

function whole(decode: Decompressor): (source: ByteSource) => ByteSource {
  return async function* (source) {
    const parts: Buffer[] = [];
    for await (const chunk of source) parts.push(asBuffer(chunk));
    yield decode(Buffer.concat(parts));
  };
}

export function decompress(inflate: (source: ByteSource) => ByteSource, into: Scanner): Scanner {
  return (source, details) => into(inflate(source), details);
}

async function inflater(algorithm: string, at: string): Promise<(source: ByteSource) => ByteSource> {
  if (algorithm in STREAMED) return streamed(STREAMED[algorithm as keyof typeof STREAMED]);
  if (WHOLE.includes(algorithm)) return whole(await decompressor(algorithm));
  const why = UNSUPPORTED[algorithm] ?? `expected one of ${ALGORITHMS.join(', ')}`;
  throw new ConfigError(`${at}.decompress.algorithm: ${algorithm} is not supported: ${why}`);
}

export const spec: ScannerSpec<DecompressConfig> = {
  name: 'decompress',
  kind: 'scanner',
  status: 'stable',
  summary: 'Decompresses the stream, then scans the result with another scanner.',
  description:
    'Algorithms: `gzip`, `pgzip`, `zlib` and `flate` are decoded as the bytes arrive; `bzip2` and `lz4` (the LZ4 frame format) are read to the end of the stream and then decoded, so the whole compressed stream is held in memory. `snappy` (here the framed snappy stream format) and `zstd` are accepted by the linter, as the reference names them, but fail when the stream is built.',
  fields: [
    field.string(
      'algorithm',
      `The compression of the stream, one of ${ALGORITHMS.map((a) => `\`${a}\``).join(', ')}.`,
      { examples: ['gzip'] },
    ),
    field.component('scanner', 'into', 'The scanner that reads the decompressed bytes.', {
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
};
