// The public message and parseMapping: what plugin and consumer code read and write.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BloblangParseError, MappingError, Message, parseMapping } from '../../src/api/index.js';

describe('Message', () => {
  it('reads content as string, buffer and JSON', () => {
    const message = new Message('{"a":1}');
    assert.equal(message.asString(), '{"a":1}');
    assert.deepEqual([...message.asBuffer()], [...Buffer.from('{"a":1}')]);
    assert.deepEqual(message.asJson(), { a: 1 });
    assert.throws(() => new Message('not json').asJson());
  });

  it('withContent copies, keeping metadata; setMetadata sets and deletes', () => {
    const original = new Message('one', { k: 'v' });
    const changed = original.withContent({ two: 2 }).setMetadata('extra', 'x');
    assert.equal(original.asString(), 'one');
    assert.equal(original.metadata('extra'), undefined);
    assert.deepEqual(changed.asJson(), { two: 2 });
    assert.deepEqual(changed.metadataObject(), { k: 'v', extra: 'x' });
    changed.setMetadata('k', undefined);
    assert.equal(changed.metadata('k'), undefined);
  });

  it('carries an error flag', () => {
    const message = new Message('x');
    assert.equal(message.error(), null);
    assert.equal(message.setError('bad').error()?.message, 'bad');
    assert.equal(message.setError(null).error(), null);
  });
});

describe('parseMapping', () => {
  it('queries values and applies to messages', () => {
    const mapping = parseMapping('root.sum = this.a + this.b\nroot.tag = @tag');
    assert.deepEqual(mapping.query({ a: 1, b: 2 }, { tag: 't' }), { sum: 3, tag: 't' });
    const out = mapping.apply(new Message('{"a":5,"b":5}', { tag: 'm' }));
    assert.deepEqual(out?.asJson(), { sum: 10, tag: 'm' });
    assert.equal(parseMapping('root = deleted()').apply(new Message('x')), null);
  });

  it('gives the errors the CLI gives', () => {
    assert.throws(
      () => parseMapping('root = this.'),
      (err: unknown) => {
        assert.ok(err instanceof BloblangParseError);
        assert.equal(err.line, 1);
        return true;
      },
    );
    assert.throws(() => parseMapping('root = this.a.uppercase()').query({ a: 1 }), MappingError);
  });
});
