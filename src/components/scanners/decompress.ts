// The `decompress` scanner: inflates the stream, then hands it to `into`.
import { Readable } from 'node:stream';
import { createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import { field } from '../../config/spec.js';
import { buildScanner } from './build.js';
import type { Scanner, ScannerSpec } from './scanner.js';

export interface DecompressConfig {
  algorithm: string;
  into: unknown;
}

const DECOMPRESSORS = {
  gzip: createGunzip,
  pgzip: createGunzip,
  zlib: createInflate,
  flate: createInflateRaw,
} as const;

type Algorithm = keyof typeof DECOMPRESSORS;

const ALGORITHMS = Object.keys(DECOMPRESSORS);
// Known to the reference but with no decoder in node's standard library.
const UNSUPPORTED = ['bzip2', 'lz4', 'snappy', 'zstd'];

export function decompress(algorithm: Algorithm, into: Scanner): Scanner {
  return (source, details) => {
    const inflated = Readable.from(source, { objectMode: false }).pipe(DECOMPRESSORS[algorithm]());
    return into(inflated, details);
  };
}

export const spec: ScannerSpec<DecompressConfig> = {
  name: 'decompress',
  kind: 'scanner',
  status: 'stable',
  summary: 'Decompresses the stream, then scans the result with another scanner.',
  description: `Supported algorithms: ${ALGORITHMS.map((a) => `\`${a}\``).join(', ')}.`,
  fields: [
    field.string('algorithm', 'The compression of the stream.', { examples: ['gzip'] }),
    field.component('scanner', 'into', 'The scanner that reads the decompressed bytes.', {
      default: { to_the_end: {} },
    }),
  ],
  lint: (config) => {
    if (ALGORITHMS.includes(config.algorithm)) return [];
    if (UNSUPPORTED.includes(config.algorithm))
      return [`algorithm ${config.algorithm} is not supported by nekton`];
    return [`unknown algorithm ${config.algorithm}, expected one of ${ALGORITHMS.join(', ')}`];
  },
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
    decompress(config.algorithm as Algorithm, await buildScanner(config.into, ctx)),
};
