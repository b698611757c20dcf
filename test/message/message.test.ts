import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { structureText } from '../../src/engine/threads/wire.js';
import { Message } from '../../src/message/message.js';

describe('a message still inside its chunk (Message.ofChunk)', () => {
  const chunk = Buffer.from('zz{"a":1}\nrest');
  const line = () => Message.ofChunk(chunk, 2, 9);

  it('reads as the slice: bytes, text, size and parsed JSON', () => {
    const msg = line();
    assert.equal(msg.byteSize(), 7);
    assert.equal(msg.text(), '{"a":1}');
    assert.deepEqual(msg.structured(), { a: 1 });
    assert.deepEqual([...msg.bytes()], [...Buffer.from('{"a":1}')]);
    assert.equal(msg.byteSize(), 7);
  });

  it('copies into a buffer and tells its last bytes without making a view', () => {
    const msg = line();
    const out = Buffer.alloc(9, 0x2e);
    assert.equal(msg.copyBytesTo(out, 1), 7);
    assert.equal(out.toString(), '.{"a":1}.');
    assert.equal(msg.endsWith(Buffer.from('}')), true);
    assert.equal(msg.endsWith(Buffer.from('1}')), true);
    assert.equal(msg.endsWith(Buffer.from('\n')), false);
    assert.equal(msg.endsWith(Buffer.alloc(0)), false);
    // Longer than the slice although the chunk holds more bytes before it.
    assert.equal(msg.endsWith(Buffer.from('zz{"a":1}')), false);
  });

  it('copies share the slice, and a write replaces it on one side only', () => {
    const msg = line();
    const copy = msg.copy();
    copy.setBytes('other');
    assert.equal(msg.text(), '{"a":1}');
    assert.equal(copy.text(), 'other');
    assert.equal(copy.byteSize(), 5);
    const structured = msg.copy();
    structured.setStructured({ b: 2 });
    assert.equal(structured.text(), '{"b":2}');
    assert.equal(msg.copy().text(), '{"a":1}');
  });

  it('after its view was made, reads and copies the view', () => {
    const msg = line();
    msg.bytes();
    const out = Buffer.alloc(7);
    msg.copyBytesTo(out, 0);
    assert.equal(out.toString(), '{"a":1}');
    assert.equal(msg.copy().text(), '{"a":1}');
    assert.equal(msg.endsWith(Buffer.from('}')), true);
  });
});

describe('a message whose content was set as text (setBytes of a string)', () => {
  it('reads back the same text, bytes, size and JSON, and a copy shares it until either side writes', () => {
    const msg = new Message('x');
    msg.setBytes('{"café":"☕"}');
    assert.equal(msg.text(), '{"café":"☕"}');
    assert.equal(msg.byteSize(), Buffer.byteLength('{"café":"☕"}'));
    assert.deepEqual(msg.structured(), { café: '☕' });
    const copy = msg.copy();
    copy.setBytes('other');
    assert.deepEqual(Buffer.from(msg.bytes()), Buffer.from('{"café":"☕"}'));
    assert.equal(msg.text(), '{"café":"☕"}');
    assert.equal(copy.text(), 'other');
    msg.setStructured({ a: 1 });
    assert.equal(msg.text(), '{"a":1}');
  });

  it('is not a structured value only once parsed: its text is still the content', () => {
    const msg = new Message('x');
    msg.setBytes('{"a": 1,  "b": [ 2 ]}');
    assert.deepEqual(msg.structured(), { a: 1, b: [2] });
    assert.equal(msg.unserialised, false);
    // A pipeline thread sends back the text as written, not a re-serialised structure.
    assert.equal(structureText(msg), null);
    assert.equal(msg.text(), '{"a": 1,  "b": [ 2 ]}');
  });

  it('text with a lone surrogate reads back as its UTF-8 does (U+FFFD), as before', () => {
    const msg = new Message('');
    msg.setBytes('a\ud800b');
    assert.equal(msg.text(), 'a\ufffdb');
    assert.equal(msg.byteSize(), 5);
  });
});
