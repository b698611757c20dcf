import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crc32 } from 'node:zlib';
import avsc from 'avsc';
import { packTar } from 'modern-tar';
import snappy from 'snappyjs';
import { buildScanner } from '../../../src/components/scanners/build.js';
import type { ByteSource } from '../../../src/components/scanners/scanner.js';
import type { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';

/** The bytes in chunks of `size`, so records and entries straddle chunk borders. */
async function* chunked(data: Uint8Array, size = 7): ByteSource {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

async function scan(scanner: unknown, source: ByteSource): Promise<Message[]> {
  const built = await buildScanner(scanner, createTestContext());
  const out: Message[] = [];
  for await (const batch of built(source, {})) out.push(...batch);
  return out;
}

const schema = {
  type: 'record',
  name: 'Person',
  fields: [
    { name: 'name', type: 'string' },
    { name: 'age', type: ['null', 'int'] },
    { name: 'tag', type: 'bytes' },
  ],
};

type SnappyCodec = (buf: Buffer, cb: (err: Error | null, out?: Buffer) => void) => void;
const snappyWithCrc: SnappyCodec = (buf, cb) => {
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(buf) >>> 0);
  cb(null, Buffer.concat([Buffer.from(snappy.compress(buf)), crc]));
};

/** An Avro object container file of `records`, written by avsc with `codec`. */
function ocf(records: unknown[], codec = 'null', blockSize?: number): Promise<Buffer> {
  const type = avsc.Type.forSchema(schema as avsc.Schema);
  const encoder = new avsc.streams.BlockEncoder(type, {
    codec,
    codecs: { ...avsc.streams.BlockEncoder.defaultCodecs(), snappy: snappyWithCrc },
    ...(blockSize ? { blockSize } : {}),
  });
  const parts: Buffer[] = [];
  encoder.on('data', (d: Buffer) => parts.push(d));
  const done = new Promise<Buffer>((resolve, reject) => {
    encoder.on('end', () => resolve(Buffer.concat(parts)));
    encoder.on('error', reject);
  });
  for (const r of records) encoder.write(r);
  encoder.end();
  return done;
}

const people = [
  { name: 'ann', age: 31, tag: Buffer.from([0x61, 0xff]) },
  { name: 'bob', age: null, tag: Buffer.alloc(0) },
];

describe('avro scanner', () => {
  it('yields each datum as Avro JSON, unions tagged, with the schema and fingerprint as metadata', async () => {
    const msgs = await scan({ avro: {} }, chunked(await ocf(people)));
    assert.deepEqual(
      msgs.map((m) => JSON.parse(m.text())),
      [
        { name: 'ann', age: { int: 31 }, tag: 'a\u00ff' },
        { name: 'bob', age: null, tag: '' },
      ],
    );
    const canonical = msgs[0]!.getMeta('avro_schema') as string;
    assert.equal(JSON.parse(canonical).name, 'Person');
    const fp = msgs[0]!.getMeta('avro_schema_fingerprint');
    assert.ok(typeof fp === 'bigint' || typeof fp === 'number');
    assert.equal(msgs[1]!.getMeta('avro_schema_fingerprint'), fp);
  });

  it('unwraps unions with raw_json', async () => {
    const msgs = await scan({ avro: { raw_json: true } }, chunked(await ocf(people)));
    assert.deepEqual(
      msgs.map((m) => JSON.parse(m.text())),
      [
        { name: 'ann', age: 31, tag: 'a\u00ff' },
        { name: 'bob', age: null, tag: '' },
      ],
    );
  });

  it('reads deflate and snappy compressed blocks across many blocks', async () => {
    const many = Array.from({ length: 300 }, (_, i) => ({
      name: `p${i}`,
      age: i,
      tag: Buffer.from([i & 0xff]),
    }));
    for (const codec of ['deflate', 'snappy']) {
      const msgs = await scan({ avro: { raw_json: true } }, chunked(await ocf(many, codec, 256), 101));
      assert.equal(msgs.length, 300, codec);
      assert.deepEqual(JSON.parse(msgs[299]!.text()).name, 'p299', codec);
    }
  });

  it('fails on data that is not an object container file', async () => {
    await assert.rejects(scan({ avro: {} }, chunked(Buffer.from('not avro at all, just text'))), /OCF/);
  });
});

describe('tar scanner', () => {
  it('yields one message per entry with its name as tar_name, directories empty', async () => {
    const archive = await packTar([
      { header: { name: 'dir/', type: 'directory', size: 0 } },
      { header: { name: 'dir/a.txt', type: 'file', size: 5 }, body: 'hello' },
      { header: { name: 'b.bin', type: 'file', size: 3 }, body: new Uint8Array([1, 2, 3]) },
      { header: { name: `${'long/'.repeat(30)}name.txt`, type: 'file', size: 2 }, body: 'hi' },
    ]);
    const msgs = await scan({ tar: {} }, chunked(archive, 300));
    assert.deepEqual(
      msgs.map((m) => [m.getMeta('tar_name'), m.text()]),
      [
        ['dir/', ''],
        ['dir/a.txt', 'hello'],
        ['b.bin', '\u0001\u0002\u0003'],
        [`${'long/'.repeat(30)}name.txt`, 'hi'],
      ],
    );
  });

  it('yields nothing for an empty stream', async () => {
    assert.deepEqual(await scan({ tar: {} }, chunked(new Uint8Array(0))), []);
  });

  it('fails on a corrupt header', async () => {
    const archive = await packTar([{ header: { name: 'a.txt', type: 'file', size: 5 }, body: 'hello' }]);
    const bad = new Uint8Array(archive);
    bad[150] = (bad[150]! + 1) & 0xff; // inside the header checksum field
    await assert.rejects(scan({ tar: {} }, chunked(bad, 64)), /tar/);
  });
});
