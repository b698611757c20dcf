// The xml processor and Bloblang parse_xml, checked against the reference's own test documents
// (internal/impl/xml/processor_test.go, bloblang.go).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MappingError, parseMapping } from '../../../src/bloblang/index.js';
import { spec } from '../../../src/components/processors/xml.js';
import type { Processor } from '../../../src/engine/component.js';
import { ConfigError } from '../../../src/engine/errors.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';

const build = async (cast = false, operator = 'to_json') =>
  (await spec.build({ operator, cast }, createTestContext())) as Processor;

async function run(processor: Processor, input: string): Promise<Message> {
  const [[out]] = (await processor.process([new Message(input)])) as Message[][];
  return out!;
}

const REFERENCE_CASES: [string, string, string][] = [
  ['basic', '<root>\n  <next>foo1</next>\n</root>', '{"root":{"next":"foo1"}}'],
  ['escapes', '<root>\n  <next>foo&amp;bar</next>\n</root>', '{"root":{"next":"foo&bar"}}'],
  [
    'HTML escapes',
    '<root>\n  <next>foo&lt;&ndash;&circ;&amp;bar</next>\n</root>',
    '{"root":{"next":"foo<&ndash;&circ;&bar"}}',
  ],
  [
    'nested',
    '<root>\n  <next>foo1</next>\n  <inner>\n  \t<thing>10</thing>\n  </inner>\n</root>',
    '{"root":{"inner":{"thing":"10"},"next":"foo1"}}',
  ],
  [
    'array',
    '<root>\n  <next>foo1</next>\n  <next>foo2</next>\n  <next>foo3</next>\n</root>',
    '{"root":{"next":["foo1","foo2","foo3"]}}',
  ],
  [
    'attributes',
    '<root isRooted="true">\n  <next withinRoot="yes">foo1</next>\n  <inner>\n  \t<thing someAttr="is boring" someAttr2="is also boring">10</thing>\n  </inner>\n</root>',
    '{"root":{"-isRooted":"true","inner":{"thing":{"#text":"10","-someAttr":"is boring","-someAttr2":"is also boring"}},"next":{"#text":"foo1","-withinRoot":"yes"}}}',
  ],
  [
    'array with attributes',
    '<root>\n  <title>This is a title</title>\n  <description tone="boring">This is a description</description>\n  <elements id="1">foo1</elements>\n  <elements id="2">foo2</elements>\n  <elements>foo3</elements>\n</root>',
    '{"root":{"description":{"#text":"This is a description","-tone":"boring"},"elements":[{"#text":"foo1","-id":"1"},{"#text":"foo2","-id":"2"},"foo3"],"title":"This is a title"}}',
  ],
  [
    'declared encoding',
    '<?xml version="1.0" encoding="ISO-8859-1"?>\n<a><b>Hello world!</b></a>',
    '{"a":{"b":"Hello world!"}}',
  ],
  [
    'numbers and bools without casting',
    '<root><title>This is a title</title><number id="99">123</number><bool>True</bool></root>',
    '{"root":{"bool":"True","number":{"#text":"123","-id":"99"},"title":"This is a title"}}',
  ],
];

describe('xml processor', () => {
  for (const [name, input, expected] of REFERENCE_CASES) {
    it(`to_json: ${name}`, async () => {
      const out = await run(await build(), input);
      assert.equal(out.error, null);
      assert.equal(out.text(), expected);
    });
  }

  it('cast makes numbers and booleans of text and attributes', async () => {
    const out = await run(
      await build(true),
      '<root><title>This is a title</title><number id="99">123</number><bool>True</bool></root>',
    );
    assert.equal(
      out.text(),
      '{"root":{"bool":true,"number":{"#text":123,"-id":99},"title":"This is a title"}}',
    );
  });

  it('flags a message that is not XML and passes it on unchanged', async () => {
    const processor = await build();
    for (const input of ['not xml', '', '<a><b></a>']) {
      const out = await run(processor, input);
      assert.match(String(out.error?.message), /^failed to parse message as XML: /, JSON.stringify(input));
      assert.equal(out.text(), input);
    }
  });

  it('refuses to build with an operator other than to_json (the default is empty)', async () => {
    await assert.rejects(
      build(false, ''),
      (err: Error) => err instanceof ConfigError && /operator not recognised/.test(err.message),
    );
  });
});

describe('parse_xml', () => {
  const map = (mapping: string, input: string) => parseMapping(mapping).apply([new Message(input)], 0)!;

  it('runs the reference’s examples', () => {
    assert.equal(
      map(
        'root.doc = this.doc.parse_xml()',
        '{"doc":"<root><title>This is a title</title><content>This is some content</content></root>"}',
      ).text(),
      '{"doc":{"root":{"content":"This is some content","title":"This is a title"}}}',
    );
    assert.equal(
      map(
        'root.doc = this.doc.parse_xml(cast: true)',
        '{"doc":"<root><title>This is a title</title><number id=\\"99\\">123</number><bool>True</bool></root>"}',
      ).text(),
      '{"doc":{"root":{"bool":true,"number":{"#text":123,"-id":99},"title":"This is a title"}}}',
    );
  });

  it('is a mapping error on text that is not XML', () => {
    assert.throws(
      () => map('root = content().parse_xml()', 'nope'),
      (err: Error) => err instanceof MappingError && /parsing value as XML/.test(err.message),
    );
  });
});
