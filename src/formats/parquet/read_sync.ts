// A synchronous Parquet reader for the `parse_parquet` Bloblang method (methods cannot wait):
// hyparquet's own page decoding and nested assembly, driven column chunk by column chunk over
// a file already in memory, instead of its asynchronous planner. Packages load on first use
// (require of ES modules works on Node 20.19+).
import { createRequire } from 'node:module';
import zlib from 'node:zlib';
import type { Decompress } from './codecs.js';
import { normaliseParquetValue, parquetParsers } from './read.js';

const require = createRequire(import.meta.url);

interface Hyparquet {
  parquetMetadata: typeof import('hyparquet').parquetMetadata;
  parquetSchema: typeof import('hyparquet').parquetSchema;
}
interface Internals {
  readColumn: (
    reader: { view: DataView; offset: number },
    plan: { groupStart: number; selectStart: number; selectEnd: number },
    decoder: Record<string, unknown>,
  ) => { data: unknown[][] };
  assembleNested: (data: Map<string, unknown[]>, schema: unknown, parsers: unknown) => void;
  getTreePath: (tree: unknown, path: string[]) => { element: unknown }[];
  DEFAULT_PARSERS: Record<string, unknown>;
}

let loaded: { hp: Hyparquet; int: Internals; codecs: Record<string, Decompress> } | undefined;

function load() {
  if (loaded) return loaded;
  const hp = require('hyparquet') as Hyparquet;
  const int = {
    ...(require('hyparquet/src/column.js') as Pick<Internals, 'readColumn'>),
    ...(require('hyparquet/src/assemble.js') as Pick<Internals, 'assembleNested'>),
    ...(require('hyparquet/src/schema.js') as Pick<Internals, 'getTreePath'>),
    ...(require('hyparquet/src/convert.js') as Pick<Internals, 'DEFAULT_PARSERS'>),
  };
  const lz = require('lz4js') as typeof import('lz4js');
  const fzstd = require('fzstd') as typeof import('fzstd');
  const codecs: Record<string, Decompress> = {
    GZIP: (input) => zlib.gunzipSync(input),
    BROTLI: (input) => zlib.brotliDecompressSync(input),
    ZSTD: (input, length) => fzstd.decompress(input, new Uint8Array(length)),
    LZ4_RAW: (input, length) => {
      const out = new Uint8Array(length);
      lz.decompressBlock(input, out, 0, input.length, 0);
      return out;
    },
  };
  loaded = { hp, int, codecs };
  return loaded;
}

type Tree = { element: { name: string }; children: Tree[] };

/** Every row of a Parquet file held in memory, in order, read synchronously. */
export function readParquetRowsSync(bytes: Uint8Array): Record<string, unknown>[] {
  const { hp, int, codecs } = load();
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const metadata = hp.parquetMetadata(file);
  const tree = hp.parquetSchema(metadata) as unknown as Tree;
  const parsers = { ...int.DEFAULT_PARSERS, ...parquetParsers };
  const rows: Record<string, unknown>[] = [];
  for (const group of metadata.row_groups) {
    const groupRows = Number(group.num_rows);
    const columns = new Map<string, unknown[]>();
    for (const chunk of group.columns) {
      const meta = chunk.meta_data;
      if (!meta) throw new Error('parquet column chunk without metadata');
      const start = Number(meta.dictionary_page_offset || meta.data_page_offset);
      const end = start + Number(meta.total_compressed_size);
      const schemaPath = int.getTreePath(tree, meta.path_in_schema);
      const { data } = int.readColumn(
        { view: new DataView(file.slice(start, end)), offset: 0 },
        { groupStart: 0, selectStart: 0, selectEnd: groupRows },
        {
          pathInSchema: meta.path_in_schema,
          element: schemaPath[schemaPath.length - 1]!.element,
          schemaPath,
          compressors: codecs,
          utf8: false,
          ...meta,
          parsers,
        },
      );
      columns.set(
        meta.path_in_schema.join('.'),
        data.flatMap((page) => Array.from(page)),
      );
    }
    const top: [string, unknown[]][] = [];
    for (const child of tree.children) {
      const name = child.element.name;
      if (child.children.length > 0) {
        const nested = new Map([...columns].filter(([path]) => path.startsWith(`${name}.`)));
        int.assembleNested(nested, child, parsers);
        top.push([name, nested.get(name) ?? []]);
      } else top.push([name, columns.get(name) ?? []]);
    }
    for (let i = 0; i < groupRows; i++) {
      const row: Record<string, unknown> = {};
      for (const [name, values] of top) row[name] = normaliseParquetValue(values[i]);
      rows.push(row);
    }
  }
  return rows;
}
