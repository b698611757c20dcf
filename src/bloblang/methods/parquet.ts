// parse_parquet (the reference's parquet plugin method): the rows of a Parquet file as an array
// of objects, read synchronously (the reader and its packages load on first use).
import { readParquetRowsSync } from '../../formats/parquet/read_sync.js';
import type { Value } from '../library.js';
import { fail, method, p, targetBytes } from './support.js';

method(
  'parse_parquet',
  // Deprecated in the reference and no longer used there either.
  [p.bool('byte_array_as_string', { optional: true, default: false })],
  (t) => {
    try {
      return readParquetRowsSync(targetBytes(t)) as Value;
    } catch (e) {
      throw fail(`parsing value as Parquet: ${(e as Error).message}`);
    }
  },
);
