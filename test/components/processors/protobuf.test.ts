import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Timestamp } from '../../../src/bloblang/library.js';
import { lintProtobuf, type ProtobufConfig, spec } from '../../../src/components/processors/protobuf.js';
import type { Processor } from '../../../src/engine/component.js';
import { ConfigError } from '../../../src/engine/errors.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'protobuf');
const SCHEMA = join(FIXTURES, 'schema');

function config(operator: string, overrides: Partial<ProtobufConfig> = {}): ProtobufConfig {
  return {
    operator,
    message: 'shop.Order',
    discard_unknown: false,
    use_proto_names: false,
    import_paths: [SCHEMA],
    use_enum_numbers: false,
    bsr: [],
    ...overrides,
  };
}

const build = async (operator: string, overrides: Partial<ProtobufConfig> = {}) =>
  (await spec.build(config(operator, overrides), createTestContext())) as Processor;

async function run(processor: Processor, input: Uint8Array | string): Promise<Message> {
  const batches = (await processor.process([new Message(input)])) as Message[][];
  assert.equal(batches.length, 1, 'one batch out');
  assert.equal(batches[0]!.length, 1, 'one message out');
  return batches[0]![0]!;
}

/** JSON -> protobuf -> JSON through two processors. */
async function roundTrip(json: unknown, overrides: Partial<ProtobufConfig> = {}): Promise<unknown> {
  const encoded = await run(await build('from_json', overrides), JSON.stringify(json));
  assert.equal(encoded.error, null, String(encoded.error));
  const decoded = await run(await build('to_json', overrides), encoded.bytes());
  assert.equal(decoded.error, null, String(decoded.error));
  return JSON.parse(decoded.text());
}

// shop.Order{order_id: "A1", status: STATUS_SHIPPED, total: {currency_code: "EUR", units: 5}},
// written out by hand from the protobuf wire format.
const ORDER_WIRE = Uint8Array.from([
  0x0a, 0x02, 0x41, 0x31, 0x10, 0x02, 0x1a, 0x07, 0x0a, 0x03, 0x45, 0x55, 0x52, 0x10, 0x05,
]);

describe('protobuf processor', () => {
  it('from_json writes the protobuf wire format, with types imported from another file', async () => {
    const out = await run(
      await build('from_json'),
      '{"orderId":"A1","status":"STATUS_SHIPPED","total":{"currencyCode":"EUR","units":"5"}}',
    );
    assert.equal(out.error, null);
    assert.deepEqual(new Uint8Array(out.bytes()), ORDER_WIRE);
  });

  it('to_json reads the wire format into proto3 JSON (camelCase names, int64 as strings, enum names)', async () => {
    const out = await run(await build('to_json'), ORDER_WIRE);
    assert.equal(out.error, null);
    assert.deepEqual(JSON.parse(out.text()), {
      orderId: 'A1',
      status: 'STATUS_SHIPPED',
      total: { currencyCode: 'EUR', units: '5' },
    });
  });

  it('use_proto_names and use_enum_numbers change the names and enums to_json writes', async () => {
    const out = await run(
      await build('to_json', { use_proto_names: true, use_enum_numbers: true }),
      ORDER_WIRE,
    );
    assert.deepEqual(JSON.parse(out.text()), {
      order_id: 'A1',
      status: 2,
      total: { currency_code: 'EUR', units: '5' },
    });
  });

  it('round-trips every kind of field the JSON mapping knows', async () => {
    const order = {
      orderId: 'B2',
      status: 'STATUS_OPEN',
      lines: [{ sku: 'x', quantity: 3 }, { sku: 'y' }],
      counters: { a: '-7', b: '9007199254740993' },
      bigSigned: '-9223372036854775808',
      bigUnsigned: '18446744073709551615',
      smallSigned: '-3',
      payload: 'aGVsbG8=',
      ratio: 'NaN',
      weight: 0.1,
      gift: true,
      placedAt: '2024-02-29T12:30:45.123Z',
      ttl: '-1.500s',
      extra: { '@type': 'type.googleapis.com/common.Money', currencyCode: 'USD', units: '1' },
      attributes: { colour: 'red', sizes: [1, 2], nested: { ok: true, none: null } },
      note: '',
      priority: 0,
      phone: '555',
    };
    assert.deepEqual(await roundTrip(order), order);
  });

  it('leaves out fields at their zero value but keeps set optional and oneof fields', async () => {
    assert.deepEqual(
      await roundTrip({ orderId: '', status: 'STATUS_UNSPECIFIED', gift: false, ratio: 0 }),
      {},
    );
    assert.deepEqual(await roundTrip({ priority: 0, email: '' }), { priority: 0, email: '' });
  });

  it('reads JSON by schema names, numbers for int64 and enums, and url-safe base64', async () => {
    assert.deepEqual(await roundTrip({ order_id: 'C', status: 2, big_signed: 42, payload: '-_8' }), {
      orderId: 'C',
      status: 'STATUS_SHIPPED',
      bigSigned: '42',
      payload: '+/8=',
    });
  });

  it('decode gives structured values: 64-bit numbers, bytes and timestamps', async () => {
    const encoded = await run(
      await build('from_json'),
      '{"bigSigned":"-5","bigUnsigned":"18446744073709551615","payload":"AAE=","placedAt":"1970-01-01T00:00:01.5Z"}',
    );
    const out = await run(await build('decode'), encoded.bytes());
    assert.equal(out.error, null);
    const value = out.structured() as Record<string, unknown>;
    assert.equal(value.bigSigned, -5);
    assert.equal(value.bigUnsigned, 18446744073709551615n);
    assert.deepEqual(new Uint8Array(value.payload as Uint8Array), Uint8Array.from([0, 1]));
    assert.ok(value.placedAt instanceof Timestamp);
    assert.equal((value.placedAt as Timestamp).epochNs, 1_500_000_000n);
  });

  it('flags a message with a field the schema does not know and passes it on unchanged', async () => {
    const input = '{"orderId":"A","contains":"unrecognised fields"}';
    const out = await run(await build('from_json'), input);
    assert.match(
      String(out.error?.message),
      /^unmarshalling JSON message 'shop.Order': unknown field "contains"$/,
    );
    assert.equal(out.text(), input);
  });

  it('discard_unknown drops unknown fields and unknown enum names instead', async () => {
    assert.deepEqual(
      await roundTrip({ orderId: 'A', contains: 1, status: 'STATUS_LOST' }, { discard_unknown: true }),
      {
        orderId: 'A',
      },
    );
  });

  it('flags values of the wrong type, out of range, or not JSON', async () => {
    const fromJson = await build('from_json');
    for (const [input, pattern] of [
      ['{"lines":[{"quantity":-1}]}', /invalid value for uint32 field quantity: -1/],
      ['{"bigSigned":"9223372036854775808"}', /invalid value for int64 field bigSigned/],
      ['{"status":"STATUS_LOST"}', /invalid value for enum field status: "STATUS_LOST"/],
      ['{"gift":"yes"}', /invalid value for bool field gift/],
      ['{"placedAt":"yesterday"}', /invalid google.protobuf.Timestamp value "yesterday"/],
      ['{"email":"a","phone":"b"}', /oneof shop.Order.contact is already set/],
      ['{"orderId":', /unmarshalling JSON message 'shop.Order'/],
      ['[1]', /invalid value for message shop.Order/],
    ] as const) {
      const out = await run(fromJson, input);
      assert.match(String(out.error?.message), pattern, input);
      assert.equal(out.text(), input);
    }
  });

  it('one processor reads many messages of a type alike: 32-bit integers, doubles, strings, aliases', async () => {
    const fromJson = await build('from_json');
    const toJson = await build('to_json');
    const through = async (input: string) => {
      const encoded = await run(fromJson, input);
      if (encoded.error) return encoded.error.message;
      return JSON.parse((await run(toJson, encoded.bytes())).text());
    };
    for (let i = 0; i < 3; i++) {
      assert.deepEqual(
        await through('{"priority":-0,"ratio":-2.5,"lines":[{"sku":"a","quantity":4294967295}]}'),
        {
          priority: 0,
          ratio: -2.5,
          lines: [{ sku: 'a', quantity: 4294967295 }],
        },
      );
      assert.deepEqual(await through('{"priority":"7","ratio":"1e2"}'), { priority: 7, ratio: 100 });
    }
    for (const [input, pattern] of [
      ['{"priority":2147483648}', /invalid value for int32 field priority: 2147483648/],
      ['{"priority":1.5}', /invalid value for int32 field priority: 1.5/],
      ['{"lines":[{"quantity":4294967296}]}', /invalid value for uint32 field quantity: 4294967296/],
      ['{"orderId":5}', /invalid value for string field orderId: 5/],
      ['{"orderId":"a","order_id":"b"}', /duplicate field "order_id"/],
    ] as const)
      assert.match(String(await through(input)), pattern, input);
  });

  it('a type without oneofs (read by generated code) reports the first problem in document order, as the general path does', async () => {
    const money = { message: 'common.Money' };
    const fromJson = await build('from_json', money);
    for (const [input, pattern] of [
      // currency_code comes first in the schema, units first in the document
      ['{"units":"x","currencyCode":5}', /invalid value for int64 field units: "x"/],
      ['{"currencyCode":5,"units":"x"}', /invalid value for string field currencyCode: 5/],
      ['{"currencyCode":"EUR","currency_code":"USD"}', /duplicate field "currency_code"/],
      ['{"nope":1,"currencyCode":5}', /unknown field "nope"/],
      ['{"currencyCode":5,"nope":1}', /invalid value for string field currencyCode: 5/],
      ['{"lines":[{"sku":"a"},{"quantity":-1,"sku":2}]}', /invalid value for uint32 field quantity: -1/],
    ] as const) {
      const out = await run(input.startsWith('{"lines"') ? await build('from_json') : fromJson, input);
      assert.match(String(out.error?.message), pattern, input);
    }
    assert.deepEqual(await roundTrip({ currency_code: 'EUR', units: null }, money), { currencyCode: 'EUR' });
    assert.deepEqual(await roundTrip({ units: '7', nope: [1] }, { ...money, discard_unknown: true }), {
      units: '7',
    });
  });

  it('flags bytes that are not a valid protobuf message and passes them on unchanged', async () => {
    const garbage = Uint8Array.from([0x0a, 0x05, 0x41]); // a 5-byte string holding 1 byte
    const out = await run(await build('to_json'), garbage);
    assert.match(String(out.error?.message), /^failed to unmarshal protobuf message 'shop.Order': /);
    assert.deepEqual(new Uint8Array(out.bytes()), garbage);
  });

  it('converts each message of a batch on its own, a bad one flagged in place', async () => {
    const processor = await build('from_json');
    const batches = (await processor.process([
      new Message('{"orderId":"1"}'),
      new Message('{"nope":1}'),
      new Message('{"orderId":"3"}'),
    ])) as Message[][];
    assert.equal(batches[0]!.length, 3);
    assert.deepEqual(
      batches[0]!.map((m) => m.error === null),
      [true, false, true],
    );
  });

  it('refuses to build when the message, a directory, an import or a file is missing or broken', async () => {
    await assert.rejects(build('to_json', { message: 'shop.Nope' }), (err: Error) => {
      assert.ok(err instanceof ConfigError);
      assert.match(err.message, /unable to find message 'shop.Nope' definition/);
      return true;
    });
    await assert.rejects(build('to_json', { message: '' }), /message field must not be empty/);
    await assert.rejects(
      build('to_json', { import_paths: [join(FIXTURES, 'no_such_dir')] }),
      /unable to load protos: import path '.*no_such_dir' is not a directory/,
    );
    await assert.rejects(
      build('to_json', { import_paths: [join(FIXTURES, 'missing_import')], message: 'lonely.Lonely' }),
      /unable to load protos: .*not\/there\.proto/,
    );
    await assert.rejects(
      build('to_json', { import_paths: [join(FIXTURES, 'broken')], message: 'broken.Oops' }),
      /unable to load protos: .*bad\.proto/,
    );
    await assert.rejects(
      build('to_json', {
        bsr: [{ module: 'buf.build/x/y', url: '', api_key: '', version: '' }],
        import_paths: [],
      }),
      /Buf Schema Registry is not supported/,
    );
  });

  it('lints a config that sets neither or both of import_paths and bsr', () => {
    const bsr = [{ module: 'buf.build/x/y', url: '', api_key: '', version: '' }];
    assert.deepEqual(lintProtobuf({}), ['at least one of `import_paths`and `bsr` must be set']);
    assert.deepEqual(lintProtobuf({ import_paths: ['a'], bsr }), [
      "both `import_paths` and `bsr` can't be set simultaneously",
    ]);
    assert.deepEqual(lintProtobuf({ import_paths: ['a'] }), []);
    assert.deepEqual(lintProtobuf({ bsr }), []);
  });
});
