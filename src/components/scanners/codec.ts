// The deprecated `codec` field of the file and stdin inputs, mapped onto the scanners that replaced it.
import { extname } from 'node:path';
import { ConfigError } from '../../engine/errors.js';

export type ScannerValue = Record<string, unknown>;

/**
 * `lines`, `delim:x`, `all-bytes`, `chunker:N`, `csv`, `csv:x`, `regex:p`, `skipbom`, `gzip`,
 * `pgzip`, `tar`, chained with `/` (e.g. `gzip/lines`). `auto` picks by the file extension.
 */
export function codecToScanner(codec: string, maxBuffer: number, path = ''): ScannerValue {
  const [head, ...rest] = codec.split('/');
  const tail = rest.join('/');
  const into = (fallback: ScannerValue): ScannerValue =>
    tail ? codecToScanner(tail, maxBuffer, path) : fallback;
  const name = head as string;
  const colon = name.indexOf(':');
  const kind = colon < 0 ? name : name.slice(0, colon);
  const arg = colon < 0 ? '' : name.slice(colon + 1);
  switch (kind) {
    case 'lines':
      return { lines: { max_buffer_size: maxBuffer } };
    case 'delim':
      return { lines: { custom_delimiter: arg, max_buffer_size: maxBuffer } };
    case 'all-bytes':
      return { to_the_end: {} };
    case 'chunker':
      return { chunker: { size: Number(arg) } };
    case 'csv':
    case 'csv-safe':
      return { csv: arg ? { custom_delimiter: arg } : {} };
    case 'regex':
      return { re_match: { pattern: arg, max_buffer_size: maxBuffer } };
    case 'skipbom':
      return { skip_bom: { into: into({ lines: { max_buffer_size: maxBuffer } }) } };
    case 'gzip':
    case 'pgzip':
      return { decompress: { algorithm: kind, into: into({ to_the_end: {} }) } };
    case 'auto':
      return autoCodec(path, maxBuffer);
    default:
      throw new ConfigError(`codec ${codec} is not supported; use the scanner field instead`);
  }
}

function autoCodec(path: string, maxBuffer: number): ScannerValue {
  switch (extname(path).toLowerCase()) {
    case '.csv':
      return { csv: {} };
    case '.gz':
    case '.gzip':
      return {
        decompress: { algorithm: 'gzip', into: autoCodec(path.slice(0, -extname(path).length), maxBuffer) },
      };
    default:
      return { lines: { max_buffer_size: maxBuffer } };
  }
}
