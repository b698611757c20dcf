// The content a Redis output sends: a structured message's JSON text as a string (one string per
// command for the client), the same bytes Message.bytes() makes; anything else as bytes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bodyArgument } from '../../../src/components/redis/message_body.js';
import { Message } from '../../../src/message/message.js';

const bytesOf = (arg: unknown) => (typeof arg === 'string' ? Buffer.from(arg, 'utf8') : (arg as Buffer));

describe('redis bodyArgument', () => {
  it('sends a structured value as its JSON text, byte for byte what bytes() makes', () => {
    const value = { z: 1, a: [1.5, 'é', null, true], big: 12345678901234567890n, s: 'x"\n' };
    const arg = bodyArgument(Message.fromStructured(value));
    assert.equal(typeof arg, 'string');
    assert.deepEqual(bytesOf(arg), Buffer.from(Message.fromStructured(value).bytes()));
  });

  it('sends a structured string as the string itself, as bytes() does', () => {
    const arg = bodyArgument(Message.fromStructured('plain text'));
    assert.equal(arg, 'plain text');
  });

  it('sends raw or already serialised content as bytes', () => {
    const raw = new Message(Buffer.from('{"a":1}'));
    assert.ok(Buffer.isBuffer(bodyArgument(raw)));
    assert.equal(bytesOf(bodyArgument(raw)).toString(), '{"a":1}');
    const serialised = Message.fromStructured({ b: 2 });
    serialised.bytes();
    assert.equal(bytesOf(bodyArgument(serialised)).toString(), '{"b":2}');
    const bytes = Message.fromStructured(new Uint8Array([1, 2, 3]));
    assert.deepEqual([...bytesOf(bodyArgument(bytes))], [1, 2, 3]);
  });
});
