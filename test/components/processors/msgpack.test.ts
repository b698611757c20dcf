// The msgpack processor and the parse_msgpack / format_msgpack Bloblang methods, checked against
// the reference's own test documents (internal/impl/msgpack).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MappingError, parseMapping } from '../../../src/bloblang/index.js';
import { spec } from '../../../src/components/processors/msgpack.js';
import type { Processor } from '../../../src/engine/component.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';

const REFERENCE_DOC = Buffer.from(
  'iKNrZXmjZm9vp3RydWVLZXnDqGZhbHNlS2V5wqdudWxsS2V5wKZpbnRLZXnQe6hmbG9hdEtlectARszMzMzMzaVhcnJheZGjYmFypm5lc3RlZIGja2V5o2Jheg==',
  'base64',
);
const REFERENCE_JSON = {
  key: 'foo',
  trueKey: true,
  falseKey: false,
  nullKey: null,
  intKey: 123,
  floatKey: 45.6,
  array: ['bar'],
  nested: { key: 'baz' },
};

const build = async (operator: string) => (await spec.build({ operator }, createTestContext())) as Processor;

async function run(processor: Processor, input: Uint8Array | string): Promise<Message> {
  const [[out]] = (await processor.process([new Message(input)])) as Message[][];
  return out!;
}

describe('msgpack processor', () => {
  it('to_json reads the reference’s document', async () => {
    const out = await run(await build('to_json'), REFERENCE_DOC);
    assert.equal(out.error, null);
    assert.deepEqual(out.structured(), REFERENCE_JSON);
  });

  it('reads its operator case-insensitively, as lint accepts it', async () => {
    const out = await run(await build('TO_JSON'), REFERENCE_DOC);
    assert.equal(out.error, null);
    assert.deepEqual(out.structured(), REFERENCE_JSON);
  });

  it('from_json writes integers in their smallest form, 64-bit ones exactly', async () => {
    const input =
      '{"int8": 13, "uint8": 254, "int16": -257, "uint16": 65534, "int32": -70123, "uint32": 2147483648, "int64": -9223372036854775808, "uint64": 18446744073709551615}';
    const packed = await run(await build('from_json'), input);
    assert.equal(packed.error, null);
    const bytes = Buffer.from(packed.bytes());
    // fixint 13, uint8 254, int16 -257, uint16 65534, int32, uint32, int64, uint64 markers.
    for (const marker of [
      '0d',
      'ccfe',
      'd1feff',
      'cdfffe',
      'd2fffeee15',
      'ce80000000',
      'd38000000000000000',
      'cfffffffffffffffff',
    ])
      assert.ok(bytes.toString('hex').includes(marker), marker);
    const back = await run(await build('to_json'), bytes);
    assert.deepEqual(back.structured(), {
      int8: 13,
      uint8: 254,
      int16: -257,
      uint16: 65534,
      int32: -70123,
      uint32: 2147483648,
      int64: -9223372036854775808n,
      uint64: 18446744073709551615n,
    });
  });

  it('round-trips the reference’s JSON', async () => {
    const packed = await run(await build('from_json'), JSON.stringify(REFERENCE_JSON));
    const back = await run(await build('to_json'), packed.bytes());
    assert.deepEqual(back.structured(), REFERENCE_JSON);
  });

  it('flags what it cannot convert and passes it on unchanged', async () => {
    const notJson = await run(await build('from_json'), '{"a":');
    assert.match(String(notJson.error?.message), /^parsing message as JSON: /);
    assert.equal(notJson.text(), '{"a":');
    const truncated = REFERENCE_DOC.subarray(0, 10);
    const bad = await run(await build('to_json'), truncated);
    assert.match(String(bad.error?.message), /^converting MsgPack document to JSON: /);
    assert.deepEqual(Buffer.from(bad.bytes()), truncated);
  });
});

describe('parse_msgpack and format_msgpack', () => {
  const map = (mapping: string, input: string) => parseMapping(mapping).apply([new Message(input)], 0)!;

  it('run the reference’s examples', () => {
    assert.equal(
      map('root = content().decode("hex").parse_msgpack()', '81a3666f6fa3626172').text(),
      '{"foo":"bar"}',
    );
    assert.equal(
      map(
        'root.decoded = this.msgpack_data.decode("base64").parse_msgpack()',
        '{"msgpack_data":"gaNmb2+jYmFy"}',
      ).text(),
      '{"decoded":{"foo":"bar"}}',
    );
    assert.equal(
      map('root = this.format_msgpack().encode("hex")', '{"foo":"bar"}').text(),
      '81a3666f6fa3626172',
    );
    assert.equal(
      map(
        'root.msgpack_payload = this.data.format_msgpack().encode("base64")',
        '{"data":{"foo":"bar"}}',
      ).text(),
      '{"msgpack_payload":"gaNmb2+jYmFy"}',
    );
  });

  it('parse_msgpack of bytes that are not MessagePack is a mapping error', () => {
    assert.throws(
      () => map('root = content().decode("hex").parse_msgpack()', '81a366'),
      (err: Error) => {
        assert.ok(err instanceof MappingError, err.message);
        assert.match(err.message, /failed to parse value as MessagePack/);
        return true;
      },
    );
  });
});
