import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parquetMetadata } from 'hyparquet';
import { MappingError, parseMapping } from '../../../src/bloblang/index.js';
import { spec as parquetInput } from '../../../src/components/inputs/parquet.js';
import { spec as decodeSpec } from '../../../src/components/processors/parquet_decode.js';
import { spec as encodeSpec } from '../../../src/components/processors/parquet_encode.js';
import type { Processor } from '../../../src/engine/component.js';
import { type Batch, Message } from '../../../src/message/message.js';
import { Timestamp } from '../../../src/message/value.js';
import { tempDir } from '../../helpers/cli.js';
import { createTestContext } from '../../helpers/context.js';

const encodeDefaults = {
  schema_metadata: '',
  default_compression: 'uncompressed',
  default_encoding: 'DELTA_LENGTH_BYTE_ARRAY',
  default_timestamp_unit: 'NANOSECOND',
};

async function encoder(config: Record<string, unknown>): Promise<Processor> {
  return encodeSpec.build({ ...encodeDefaults, ...config } as never, createTestContext());
}

async function decoder(config: Record<string, unknown> = {}): Promise<Processor> {
  return decodeSpec.build(
    { byte_array_as_string: false, handle_logical_types: 'v1', ...config } as never,
    createTestContext(),
  );
}

async function run(p: Processor, batch: Batch): Promise<Batch[]> {
  return await p.process(batch);
}

const rows = (values: unknown[]) => values.map((v) => Message.fromStructured(v));

const schema = [
  { name: 'id', type: 'INT64' },
  { name: 'name', type: 'UTF8', optional: true },
  { name: 'weight', type: 'DOUBLE' },
  { name: 'raw', type: 'BYTE_ARRAY' },
  { name: 'ok', type: 'BOOLEAN' },
  { name: 'at', type: 'TIMESTAMP' },
  { name: 'uid', type: 'UUID' },
  { name: 'doc', type: 'JSON' },
  { name: 'tags', type: 'UTF8', repeated: true },
  {
    name: 'pos',
    fields: [
      { name: 'x', type: 'INT32' },
      { name: 'y', type: 'FLOAT', optional: true },
    ],
  },
];

const input = [
  {
    id: 1,
    name: 'ann',
    weight: 1.5,
    raw: 'bytes',
    ok: true,
    at: '2024-05-06T07:08:09.123456789Z',
    uid: '00112233-4455-6677-8899-aabbccddeeff',
    doc: { a: [1, 2] },
    tags: ['x', 'y'],
    pos: { x: 3, y: 0.5 },
  },
  {
    id: 2,
    weight: 2,
    raw: '',
    ok: false,
    at: 0,
    uid: '00000000-0000-0000-0000-000000000001',
    doc: null,
    tags: [],
    pos: { x: -1 },
  },
];

describe('parquet_encode and parquet_decode', () => {
  it('encodes a batch into one file in the first message and decodes it back row by row', async () => {
    const enc = await encoder({ schema });
    const batch = rows(input);
    batch[0]!.setMeta('kept', 'yes');
    const [encoded] = await run(enc, batch);
    assert.equal(encoded!.length, 1);
    const file = encoded![0]!;
    assert.equal(file.getMeta('kept'), 'yes');
    assert.equal(Buffer.from(file.bytes().subarray(0, 4)).toString(), 'PAR1');

    const [decoded] = await run(await decoder(), [file]);
    const out = decoded!.map((m) => m.structured() as Record<string, unknown>);
    assert.equal(out.length, 2);
    assert.equal(decoded![1]!.getMeta('kept'), 'yes');
    const first = out[0]!;
    assert.equal(first.id, 1);
    assert.equal(first.name, 'ann');
    assert.equal(first.weight, 1.5);
    assert.deepEqual(Buffer.from(first.raw as Uint8Array).toString(), 'bytes');
    assert.equal(first.ok, true);
    assert.ok(first.at instanceof Timestamp);
    assert.equal((first.at as Timestamp).epochNs, 1714979289123456789n);
    assert.equal(first.uid, '00112233-4455-6677-8899-aabbccddeeff');
    assert.deepEqual(first.doc, { a: [1, 2] });
    assert.deepEqual(first.tags, ['x', 'y']);
    assert.deepEqual(first.pos, { x: 3, y: 0.5 });
    const second = out[1]!;
    assert.equal(second.name, null, 'an optional column a row lacks is null');
    assert.equal((second.at as Timestamp).epochNs, 0n);
    assert.deepEqual(second.tags, []);
    assert.deepEqual(second.pos, { x: -1, y: null });
  });

  it('orders columns by name and writes each compression the reference offers', async () => {
    for (const compression of ['uncompressed', 'snappy', 'gzip', 'brotli', 'zstd', 'lz4raw']) {
      const enc = await encoder({
        schema: [
          { name: 'b', type: 'UTF8' },
          { name: 'a', type: 'INT32' },
        ],
        default_compression: compression,
      });
      const many = rows(Array.from({ length: 500 }, (_, i) => ({ a: i, b: `value ${i % 7}` })));
      const [[file]] = (await run(enc, many)) as [[Message]];
      const meta = parquetMetadata(file.bytes().slice().buffer as ArrayBuffer);
      assert.deepEqual(
        meta.schema.slice(1).map((e) => e.name),
        ['a', 'b'],
      );
      const codec = meta.row_groups[0]!.columns[0]!.meta_data!.codec;
      assert.equal(
        codec,
        { uncompressed: 'UNCOMPRESSED', lz4raw: 'LZ4_RAW' }[compression] ?? compression.toUpperCase(),
      );
      const [decoded] = await run(await decoder(), [file]);
      assert.equal(decoded!.length, 500, compression);
      assert.deepEqual(decoded![499]!.structured(), { a: 499, b: 'value 2' }, compression);
    }
  });

  it('takes the schema from metadata in the common schema format', async () => {
    const enc = await encoder({ schema_metadata: 'schema' });
    const batch = rows([{ n: 5, s: 'x', list: [1, 2] }]);
    batch[0]!.setMeta('schema', {
      type: 'OBJECT',
      children: [
        { name: 'n', type: 'INT64' },
        { name: 's', type: 'STRING', optional: true },
        { name: 'list', type: 'ARRAY', children: [{ type: 'INT32' }] },
      ],
    });
    const [[file]] = (await run(enc, batch)) as [[Message]];
    const [decoded] = await run(await decoder(), [file]);
    assert.deepEqual(decoded![0]!.structured(), { list: [1, 2], n: 5, s: 'x' });
  });

  it('flags every message of the batch when a row cannot be written', async () => {
    const enc = await encoder({ schema: [{ name: 'n', type: 'INT64' }] });
    const [out] = await run(enc, rows([{ n: 1 }, { n: 'not a number' }]));
    assert.deepEqual(
      out!.map((m) => m.text()),
      ['{"n":1}', '{"n":"not a number"}'],
    );
    assert.equal(out!.length, 2);
    for (const m of out!) assert.match(m.error?.message ?? '', /cannot write string as INT64/);
    const [notObject] = await run(enc, [new Message('[1,2]')]);
    assert.match(notObject![0]!.error?.message ?? '', /unable to encode message type array/);
  });

  it('flags a message that is not a Parquet file and keeps it', async () => {
    const [out] = await run(await decoder(), [new Message('hello')]);
    assert.equal(out!.length, 1);
    assert.equal(out![0]!.text(), 'hello');
    assert.ok(out![0]!.error);
  });

  it('gives strings for byte arrays with byte_array_as_string', async () => {
    const enc = await encoder({ schema: [{ name: 'raw', type: 'BYTE_ARRAY' }] });
    const [[file]] = (await run(enc, rows([{ raw: 'abc' }]))) as [[Message]];
    const [decoded] = await run(await decoder({ byte_array_as_string: true }), [file]);
    assert.deepEqual(decoded![0]!.structured(), { raw: 'abc' });
  });

  it('lints a missing schema and a column both repeated and optional', () => {
    assert.deepEqual(encodeSpec.lint!({ ...encodeDefaults, schema: [] } as never), [
      'either a schema or schema_metadata must be specified',
    ]);
    assert.deepEqual(
      encodeSpec.lint!({
        ...encodeDefaults,
        schema: [{ name: 'a', type: 'INT32', repeated: true, optional: true }],
      } as never),
      ['column a cannot be both repeated and optional'],
    );
  });
});

describe('parquet input', () => {
  it('reads the rows of each file in batches of batch_count', async () => {
    const dir = tempDir('nekton-parquet-');
    const enc = await encoder({ schema: [{ name: 'n', type: 'INT64' }] });
    for (const [name, from] of [
      ['a.parquet', 0],
      ['b.parquet', 5],
    ] as const) {
      const [[file]] = (await run(enc, rows([0, 1, 2, 3, 4].map((i) => ({ n: from + i }))))) as [[Message]];
      writeFileSync(join(dir, name), file.bytes());
    }
    const ctx = createTestContext();
    const inputs = await parquetInput.build(
      { paths: [join(dir, '*.parquet')], batch_count: 2, auto_replay_nacks: true } as never,
      ctx,
    );
    const batches: number[][] = [];
    for (let txn = await inputs.read(); txn; txn = await inputs.read()) {
      batches.push(txn.batch.map((m) => (m.structured() as { n: number }).n));
      await txn.ack(null);
    }
    assert.deepEqual(batches, [[0, 1], [2, 3], [4], [5, 6], [7, 8], [9]]);
    await inputs.close();
  });

  it('lints a batch_count below 1', () => {
    assert.deepEqual(parquetInput.lint!({ paths: ['x'], batch_count: 0, auto_replay_nacks: true } as never), [
      'batch_size must be >0, got 0',
    ]);
  });
});

describe('parse_parquet', () => {
  it('gives the rows of a file as an array of objects, nested columns and compression included', async () => {
    for (const compression of ['snappy', 'zstd', 'lz4raw', 'gzip']) {
      const enc = await encoder({ schema, default_compression: compression });
      const [[file]] = (await run(enc, rows(input))) as [[Message]];
      const out = parseMapping('root = content().parse_parquet()').apply([file], 0)!;
      const parsed = out.structured() as Record<string, unknown>[];
      assert.equal(parsed.length, 2, compression);
      const [decoded] = await run(await decoder(), [file]);
      assert.deepEqual(
        parsed,
        decoded!.map((m) => m.structured()),
        `${compression}: the method and the processor agree`,
      );
      assert.deepEqual(parsed[0]!.tags, ['x', 'y']);
      assert.deepEqual(parsed[1]!.pos, { x: -1, y: null });
    }
  });

  it('fails the mapping on bytes that are not Parquet', () => {
    assert.throws(
      () => parseMapping('root = content().parse_parquet()').apply([new Message('nope')], 0),
      MappingError,
    );
  });
});
