import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runProcessors } from '../../src/engine/observed_processor.js';
import { perMessage, processorErrorLog } from '../../src/engine/processor_helpers.js';
import { Message } from '../../src/message/message.js';

const batchOf = (...texts: string[]) => texts.map((t) => new Message(t));
const texts = (batches: Message[][]) => batches.map((b) => b.map((m) => m.text()));

describe('perMessage', () => {
  it('returns a plain array, not a promise, when the function is synchronous', () => {
    const process = perMessage((msg) => msg);
    const result = process(batchOf('a', 'b'));
    assert.ok(Array.isArray(result));
    assert.deepEqual(texts(result as Message[][]), [['a', 'b']]);
  });

  it('drops null results, flattens arrays, and returns no batch when everything was dropped', () => {
    const process = perMessage((msg) => (msg.text() === 'x' ? null : [msg, msg.copy()]));
    assert.deepEqual(texts(process(batchOf('a', 'x')) as Message[][]), [['a', 'a']]);
    assert.deepEqual(process(batchOf('x', 'x')), []);
  });

  it('flags a copy of a message that throws and leaves the original untouched', () => {
    const seen: string[] = [];
    const original = batchOf('ok', 'bad');
    const process = perMessage(
      (msg) => {
        if (msg.text() === 'bad') throw new Error('boom');
        return msg;
      },
      { onError: (err) => seen.push(err.message) },
    );
    const [out] = process(original) as Message[][];
    assert.equal(out!.length, 2);
    assert.equal(out![0]!.error, null);
    assert.equal(out![1]!.error?.message, 'boom');
    assert.equal(original[1]!.error, null);
    assert.deepEqual(seen, ['boom']);
  });

  it('finishes asynchronously in order once the function returns a promise, flagging rejections', async () => {
    const process = perMessage(async (msg, _batch, i) => {
      await new Promise((r) => setTimeout(r, 3 - i));
      if (msg.text() === 'b') throw new Error('no b');
      return new Message(`${msg.text()}!`);
    });
    const result = process(batchOf('a', 'b', 'c'));
    assert.ok(result instanceof Promise);
    const [out] = await result;
    assert.deepEqual(
      out!.map((m) => m.text()),
      ['a!', 'b', 'c!'],
    );
    assert.equal(out![1]!.error?.message, 'no b');
  });
});

describe('perMessage on a batch of one message (its own fast path)', () => {
  it('keeps one result, drops null, flattens an array result and flags a throw', async () => {
    const process = perMessage((msg) => {
      const t = msg.text();
      if (t === 'drop') return null;
      if (t === 'split') return [new Message('s1'), new Message('s2')];
      if (t === 'none') return [];
      if (t === 'bad') throw new Error('bad one');
      if (t === 'later') return Promise.resolve(new Message('later!'));
      return new Message(`${t}!`);
    });
    assert.deepEqual(texts(process(batchOf('a')) as Message[][]), [['a!']]);
    assert.deepEqual(process(batchOf('drop')), []);
    assert.deepEqual(process(batchOf('none')), []);
    assert.deepEqual(texts(process(batchOf('split')) as Message[][]), [['s1', 's2']]);
    const original = batchOf('bad');
    const [flaggedBatch] = process(original) as Message[][];
    assert.equal(flaggedBatch![0]!.error?.message, 'bad one');
    assert.equal(original[0]!.error, null);
    const pending = process(batchOf('later'));
    assert.ok(pending instanceof Promise);
    assert.deepEqual(texts(await pending), [['later!']]);
  });
});

describe('runProcessors', () => {
  const step = (fn: (m: Message) => Message | Message[] | null) => ({
    process: perMessage(fn),
    close: async () => undefined,
  });

  it('passes one batch through several processors and stops at the one that drops it', () => {
    let reachedThird = false;
    const processors = [
      step((m) => new Message(`${m.text()}1`)),
      step((m) => (m.text() === 'x1' ? null : new Message(`${m.text()}2`))),
      step((m) => {
        reachedThird = true;
        return m;
      }),
    ];
    assert.deepEqual(texts(runProcessors(processors, batchOf('a')) as Message[][]), [['a12']]);
    reachedThird = false;
    assert.deepEqual(runProcessors(processors, batchOf('x')), []);
    assert.equal(reachedThird, false);
  });

  it('leaves out the empty batches a processor answers with', () => {
    const splitter = {
      process: (batch: Message[]) => [[], batch, []],
      close: async () => undefined,
    };
    const out = runProcessors([splitter, step((m) => new Message(`${m.text()}+`))], batchOf('a'));
    assert.deepEqual(texts(out as Message[][]), [['a+']]);
  });
});

describe('processorErrorLog', () => {
  /** A processorErrorLog over a logger that records `level:message` lines. */
  function recordingLog(): { calls: string[]; log: (err: Error) => void } {
    const calls: string[] = [];
    const logger = {
      error: (m: string) => calls.push(`error:${m}`),
      debug: (m: string) => calls.push(`debug:${m}`),
    } as unknown as Parameters<typeof processorErrorLog>[0];
    return { calls, log: processorErrorLog(logger) };
  }

  it('logs the first occurrence of an error at error level and repeats at debug', () => {
    const { calls, log } = recordingLog();
    log(new Error('a'));
    log(new Error('a'));
    log(new Error('b'));
    assert.deepEqual(calls, ['error:a', 'debug:a', 'error:b']);
  });

  it('treats messages that differ only in the numbers they quote as one kind', () => {
    const { calls, log } = recordingLog();
    log(new Error('expected string value, got number (1)'));
    log(new Error('expected string value, got number (22)'));
    assert.deepEqual(calls, [
      'error:expected string value, got number (1)',
      'debug:expected string value, got number (22)',
    ]);
  });
});
