import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { spec } from '../../../src/components/processors/avro.js';
import { rabinFingerprint } from '../../../src/components/processors/avro_single_object.js';
import type { Processor } from '../../../src/engine/component.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';

// The reference's own test schema and documents (internal/impl/avro/processor_test.go).
const SCHEMA = JSON.stringify({
  namespace: 'foo.namespace.com',
  type: 'record',
  name: 'identity',
  fields: [
    { name: 'Name', type: 'string' },
    {
      name: 'Address',
      type: [
        'null',
        {
          namespace: 'my.namespace.com',
          type: 'record',
          name: 'address',
          fields: [
            { name: 'City', type: 'string' },
            { name: 'State', type: 'string' },
          ],
        },
      ],
      default: null,
    },
  ],
});
const JSON_DOC = { Name: 'foo', Address: { 'my.namespace.com.address': { City: 'foo', State: 'bar' } } };
const BINARY_DOC = Buffer.from('\x06foo\x02\x06foo\x06bar', 'latin1');

const build = async (
  operator: string,
  encoding: string,
  overrides: Partial<Parameters<typeof spec.build>[0]> = {},
) =>
  (await spec.build(
    { operator, encoding, schema: SCHEMA, schema_path: '', ...overrides },
    createTestContext(),
  )) as Processor;

async function run(processor: Processor, input: Uint8Array | string): Promise<Message> {
  const [[out]] = (await processor.process([new Message(input)])) as Message[][];
  return out!;
}

describe('avro processor', () => {
  it('from_json binary writes the reference’s bytes', async () => {
    const out = await run(await build('from_json', 'binary'), JSON.stringify(JSON_DOC));
    assert.equal(out.error, null);
    assert.deepEqual(Buffer.from(out.bytes()), BINARY_DOC);
  });

  it('to_json binary and textual read the reference’s documents', async () => {
    const binary = await run(await build('to_json', 'binary'), BINARY_DOC);
    assert.equal(binary.error, null);
    assert.deepEqual(binary.structured(), JSON_DOC);
    const textual = await run(await build('to_json', 'textual'), JSON.stringify(JSON_DOC));
    assert.deepEqual(textual.structured(), JSON_DOC);
  });

  it('round-trips a null union branch and the single-object encoding', async () => {
    const doc = { Name: 'bar', Address: null };
    const single = await run(await build('from_json', 'single'), JSON.stringify(doc));
    assert.equal(single.error, null);
    const bytes = Buffer.from(single.bytes());
    assert.deepEqual([...bytes.subarray(0, 2)], [0xc3, 0x01]);
    assert.deepEqual(bytes.subarray(10), Buffer.from('\x06bar\x00', 'latin1'));
    const back = await run(await build('to_json', 'single'), bytes);
    assert.equal(back.error, null);
    assert.deepEqual(back.structured(), doc);
  });

  it('computes the CRC-64-AVRO fingerprint of the specification', () => {
    // The Avro specification's test vector: the fingerprint of the schema "int".
    assert.equal(Buffer.from(rabinFingerprint('"int"')).toString('hex'), '8f5c393f1ad57572');
  });

  it('flags a document that does not match the schema and passes it on unchanged', async () => {
    const input = '{"Name":5}';
    const out = await run(await build('from_json', 'binary'), input);
    assert.match(String(out.error?.message), /^converting JSON to Avro schema: /);
    assert.equal(out.text(), input);
    const truncated = await run(await build('to_json', 'binary'), BINARY_DOC.subarray(0, 5));
    assert.match(String(truncated.error?.message), /^converting Avro document to JSON: /);
    const otherSchema = await run(
      await build('to_json', 'single'),
      Buffer.from([0xc3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 6]),
    );
    assert.match(String(otherSchema.error?.message), /different schema/);
  });

  it('reads JSON text and structured messages alike; negative zero and bad JSON as before', async () => {
    const schema = JSON.stringify({
      type: 'record',
      name: 'm',
      fields: [
        { name: 'x', type: 'double' },
        { name: 'n', type: 'int' },
      ],
    });
    const fromJson = await build('from_json', 'binary', { schema });
    const text = await run(fromJson, '{"x":1.5,"n":-3}');
    assert.equal(text.error, null);
    const structured = new Message('');
    structured.setStructured({ x: 1.5, n: -3 });
    const [[fromStructured]] = (await fromJson.process([structured])) as Message[][];
    assert.deepEqual(Buffer.from(fromStructured!.bytes()), Buffer.from(text.bytes()));
    // JSON text -0 was always written as 0 (the message went through JSON.stringify).
    const zero = await run(fromJson, '{"x":-0.0,"n":-0}');
    assert.deepEqual([...Buffer.from(zero.bytes())], [0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const bad = await run(fromJson, '{"x":');
    assert.match(String(bad.error?.message), /^parsing message as structured: /);
    assert.equal(bad.text(), '{"x":');
  });

  it('refuses to build without a usable schema', async () => {
    await assert.rejects(build('to_json', 'binary', { schema: '' }), /a schema must be specified/);
    await assert.rejects(build('to_json', 'binary', { schema: '{"type":"nope"}' }), /parsing schema: /);
    await assert.rejects(
      build('to_json', 'binary', { schema: '', schema_path: 'file://path_does_not_exist' }),
      /loading Avro schema definition: /,
    );
    await assert.rejects(
      build('to_json', 'binary', { schema: '', schema_path: 'schema.avsc' }),
      /must start with file:\/\/ or http:\/\//,
    );
  });

  it('reads the schema from a file:// path', async () => {
    const path = join(import.meta.dirname, '..', '..', 'fixtures', 'avro', 'identity.avsc');
    const out = await run(
      await build('to_json', 'binary', { schema: '', schema_path: `file://${path}` }),
      BINARY_DOC,
    );
    assert.equal(out.error, null);
    assert.deepEqual(out.structured(), JSON_DOC);
  });
});
