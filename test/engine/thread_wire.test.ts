// How results cross back from a pipeline thread (src/engine/threads/wire.ts): with their content,
// or, for an output that never reads it (`drop`), as their shape, metadata and errors only.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readOutcomes, writeOutcomes } from '../../src/engine/threads/wire.js';
import { Message } from '../../src/message/message.js';

function results() {
  const a = new Message('{"n":1}');
  a.setMeta('seen', 'yes');
  const b = Message.fromStructured({ n: 2, name: 'two' });
  const c = new Message('bad');
  c.error = new Error('mapping failed');
  return [[[a, b]], [[c], [new Message('x')]], new Error('the batch failed')] as const;
}

describe('pipeline thread results on the wire', () => {
  it('carry content, metadata and errors', () => {
    const outcomes = results();
    const texts = [[[null, JSON.stringify({ n: 2, name: 'two' })]], null, null];
    const back = readOutcomes(writeOutcomes(outcomes as never, texts).packet);
    const [first, second, third] = back;
    assert.ok(Array.isArray(first) && Array.isArray(second));
    assert.equal(first[0]![0]!.text(), '{"n":1}');
    assert.equal(first[0]![0]!.metadata().get('seen'), 'yes');
    assert.deepEqual(first[0]![1]!.structured(), { n: 2, name: 'two' });
    assert.equal(second[0]![0]!.text(), 'bad');
    assert.equal(second[0]![0]!.error?.message, 'mapping failed');
    assert.equal(second[1]![0]!.text(), 'x');
    assert.ok(third instanceof Error);
    assert.equal(third.message, 'the batch failed');
  });

  it('without content keep the shape, metadata and errors, and send no bytes', () => {
    const written = writeOutcomes(results() as never, undefined, false);
    assert.equal(written.packet.data.byteLength, 0);
    const [first, second, third] = readOutcomes(written.packet);
    assert.ok(Array.isArray(first) && Array.isArray(second));
    assert.deepEqual(
      [first, second].map((o) => o.map((b) => b.length)),
      [[2], [1, 1]],
    );
    assert.equal(first[0]![0]!.byteSize(), 0);
    assert.equal(first[0]![0]!.metadata().get('seen'), 'yes');
    assert.equal(second[0]![0]!.error?.message, 'mapping failed');
    assert.equal(second[1]![0]!.error, null);
    assert.ok(third instanceof Error);
  });
});
