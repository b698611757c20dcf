import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Message } from '../../../src/message/message.js';
import { batchOf, processor, run, texts } from './build.js';

describe('mapping processor', () => {
  it('builds a new document from the input and keeps the metadata', async () => {
    const p = await processor({
      mapping: 'root.name = this.user.first + " " + this.user.last\nmeta added = "yes"',
    });
    const input = new Message(
      '{"user":{"first":"ada","last":"lovelace"},"age":36}',
      new Map([['kept', 'k']]),
    );
    const [out] = await run(p, [input]);
    assert.equal(out![0]!.text(), '{"name":"ada lovelace"}');
    assert.equal(out![0]!.getMeta('kept'), 'k');
    assert.equal(out![0]!.getMeta('added'), 'yes');
    assert.equal(input.getMeta('added'), undefined, 'the input message is not changed');
  });

  it('answers synchronously (no promise on the hot path)', async () => {
    const p = await processor({ mapping: 'root = this.n + 1' });
    const out = p.process(batchOf('{"n":1}', '{"n":2}'));
    assert.ok(Array.isArray(out));
    assert.deepEqual(texts(out), [['2', '3']]);
  });

  it('drops messages whose mapping deletes them', async () => {
    const p = await processor({ mapping: 'root = if this.keep { this } else { deleted() }' });
    assert.deepEqual(texts(await run(p, batchOf('{"keep":true}', '{"keep":false}'))), [['{"keep":true}']]);
    assert.deepEqual(await run(p, batchOf('{"keep":false}')), []);
  });

  it('flags a message whose mapping fails; it carries on unchanged and error() reads the reason', async () => {
    const p = await processor({ mapping: 'root = this.n + 1' });
    const [out] = await run(p, batchOf('{"n":"x"}', '{"n":1}'));
    assert.equal(out!.length, 2);
    assert.equal(out![0]!.text(), '{"n":"x"}');
    assert.match(out![0]!.error!.message, /cannot add types string/);
    assert.equal(out![1]!.error, null);
    const reader = await processor({ mapping: 'root.reason = error()' });
    const [read] = await run(reader, [out![0]!]);
    assert.match(read![0]!.text(), /cannot add types string/);
  });

  it('sees the whole batch (batch_index, batch_size)', async () => {
    const p = await processor({ mapping: 'root = batch_index().string() + "/" + batch_size().string()' });
    assert.deepEqual(texts(await run(p, batchOf('a', 'b'))), [['0/2', '1/2']]);
  });
});

describe('mutation processor', () => {
  it('edits the document in place, keeping what it does not touch', async () => {
    const p = await processor({ mutation: 'root.b = this.a * 2\nroot.secret = deleted()' });
    assert.deepEqual(texts(await run(p, batchOf('{"a":2,"secret":"x","c":true}'))), [
      ['{"a":2,"b":4,"c":true}'],
    ]);
  });

  it('flags a failing mutation and leaves the message as it was', async () => {
    const p = await processor({ mutation: 'root.b = this.a.uppercase()' });
    const [out] = await run(p, batchOf('{"a":2}'));
    assert.equal(out![0]!.text(), '{"a":2}');
    assert.ok(out![0]!.error);
  });
});

describe('bloblang processor', () => {
  it('behaves like mapping', async () => {
    const p = await processor({ bloblang: 'root = {"doubled": this.n * 2}' });
    assert.deepEqual(texts(await run(p, batchOf('{"n":21}'))), [['{"doubled":42}']]);
  });
});
