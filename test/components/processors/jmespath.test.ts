// The jmespath processor, with the reference's own example and its error behaviour.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Message } from '../../../src/message/message.js';
import { batchOf, lintComponent, processor, run, texts } from '../bloblang_components/build.js';

describe('jmespath processor', () => {
  it('runs the reference example query', async () => {
    const p = await processor({
      jmespath: { query: "locations[?state == 'WA'].name | sort(@) | {Cities: join(', ', @)}" },
    });
    const doc =
      '{"locations":[{"name":"Seattle","state":"WA"},{"name":"New York","state":"NY"},{"name":"Bellevue","state":"WA"},{"name":"Olympia","state":"WA"}]}';
    assert.deepEqual(texts(await run(p, batchOf(doc))), [['{"Cities":"Bellevue, Olympia, Seattle"}']]);
  });

  it('keeps metadata, gives null for a missing field and reads numbers as float64s', async () => {
    const p = await processor({ jmespath: { query: '{a: a, missing: nope, big: big, sum: sum(a)}' } });
    const [[out]] = await run(p, [
      new Message('{"a":[1,2.5],"big":12345678901234567890}', new Map([['k', 'v']])),
    ]);
    assert.deepEqual(out!.structured(), { a: [1, 2.5], missing: null, big: 12345678901234567000, sum: 3.5 });
    assert.equal(out!.getMeta('k'), 'v');
  });

  it('writes a string result as a JSON string', async () => {
    const p = await processor({ jmespath: { query: 'name' } });
    assert.deepEqual(texts(await run(p, batchOf('{"name":"x"}'))), [['"x"']]);
  });

  it('flags a message that is not JSON and one whose query fails, leaving both unchanged', async () => {
    const p = await processor({ jmespath: { query: 'abs(a)' } });
    const [out] = await run(p, batchOf('not json', '{"a":"x"}', '{"a":-2}'));
    assert.equal(out!.length, 3);
    assert.equal(out![0]!.text(), 'not json');
    assert.ok(out![0]!.error);
    assert.equal(out![1]!.text(), '{"a":"x"}');
    assert.match(out![1]!.error!.message, /abs/);
    assert.equal(out![2]!.text(), '2');
    assert.equal(out![2]!.error, null);
  });

  it('does not lint or build a query that does not compile', async () => {
    const lints = lintComponent('processor', 'jmespath:\n  query: "foo["\n');
    assert.equal(lints.length, 1);
    assert.match(lints[0]!, /^failed to compile JMESPath query: /);
    await assert.rejects(processor({ jmespath: { query: 'foo[' } }), /failed to compile JMESPath query/);
  });
});
