import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Message } from '../../../src/message/message.js';
import { batchOf, processor, run, texts } from './build.js';

function failed(text: string, reason: string): Message {
  const msg = new Message(text);
  msg.error = new Error(reason);
  return msg;
}

describe('catch processor', () => {
  it('runs only on failed messages, where error() explains, and clears the flag afterwards', async () => {
    const p = await processor({ catch: [{ mapping: 'root = {"recovered": error()}' }] });
    const [out] = await run(p, [new Message('{"ok":1}'), failed('{"bad":1}', 'boom')]);
    assert.deepEqual(
      out!.map((m) => m.text()),
      ['{"ok":1}', '{"recovered":"boom"}'],
    );
    assert.ok(out!.every((m) => m.error === null));
  });

  it('recovers messages flagged by a failing mapping earlier in the pipeline', async () => {
    const mapping = await processor({ mapping: 'root.n = this.n.uppercase()' });
    const recover = await processor({ catch: [{ mapping: 'root = {"failed": true}' }] });
    const [flagged] = await run(mapping, batchOf('{"n":"a"}', '{"n":1}'));
    assert.ok(flagged![1]!.error);
    assert.deepEqual(texts(await run(recover, flagged!)), [['{"n":"A"}', '{"failed":true}']]);
  });

  it('keeps running its children on a caught message even after one of them fails it again', async () => {
    const p = await processor({
      catch: [{ mapping: 'root = this.missing.uppercase()' }, { mapping: 'root = "second ran"' }],
    });
    const [out] = await run(p, [failed('{}', 'first')]);
    assert.equal(out![0]!.text(), 'second ran');
    assert.equal(out![0]!.error, null);
  });

  it('clears errors with an empty list, and drops messages its children delete', async () => {
    const clear = await processor({ catch: [] });
    const [cleared] = await run(clear, [failed('x', 'e')]);
    assert.equal(cleared![0]!.error, null);
    const drop = await processor({ catch: [{ mapping: 'root = deleted()' }] });
    assert.deepEqual(texts(await run(drop, [new Message('keep'), failed('x', 'e')])), [['keep']]);
  });
});

describe('try processor', () => {
  it('skips the remaining processors for a message once one fails it, and keeps the flag', async () => {
    const p = await processor({
      try: [{ mutation: 'root.a = this.a.uppercase()' }, { mutation: 'root.b = "ran"' }],
    });
    const [out] = await run(p, batchOf('{"a":"x"}', '{"a":1}'));
    assert.equal(out![0]!.text(), '{"a":"X","b":"ran"}');
    assert.equal(out![1]!.text(), '{"a":1}');
    assert.ok(out![1]!.error);
  });

  it('does not run at all for a message that failed before it', async () => {
    const p = await processor({ try: [{ mapping: 'root = "ran"' }] });
    const [out] = await run(p, [failed('before', 'earlier'), new Message('fine')]);
    assert.deepEqual(
      out!.map((m) => m.text()),
      ['before', 'ran'],
    );
    assert.equal(out![0]!.error?.message, 'earlier');
  });
});

describe('for_each processor', () => {
  it('runs its processors on each message as a batch of one, keeping the order', async () => {
    const p = await processor({
      for_each: [{ mapping: 'root = content().string() + ":" + batch_size().string()' }],
    });
    assert.deepEqual(texts(await run(p, batchOf('a', 'b', 'c'))), [['a:1', 'b:1', 'c:1']]);
  });

  it('collects the messages its children split or drop into one batch', async () => {
    const p = await processor({
      for_each: [{ mapping: 'root = if content().string() == "drop" { deleted() } else { content() }' }],
    });
    assert.deepEqual(texts(await run(p, batchOf('a', 'drop', 'c'))), [['a', 'c']]);
  });
});
