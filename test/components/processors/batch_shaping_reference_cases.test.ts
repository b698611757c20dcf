// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Bloblang interpolations, not JS templates
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Processor } from '../../../src/engine/component.js';
import { Message } from '../../../src/message/message.js';
import { createTestEnv } from '../../helpers/context.js';
import { batchOf, processor, run, texts } from '../bloblang_components/build.js';

describe('processors processor', () => {
  it('runs its list in sequence, each step on what the one before produced', async () => {
    const p = await processor({
      processors: [
        { mapping: 'root = {"n": this.n * 2}' },
        { split: { size: 1 } },
        { mutation: 'root.i = batch_index()' },
      ],
    });
    assert.deepEqual(texts(await run(p, batchOf('{"n":1}', '{"n":2}'))), [
      ['{"i":0,"n":2}'],
      ['{"i":0,"n":4}'],
    ]);
  });

  it('flags a failing message and passes it on, and drops what a mapping deletes', async () => {
    const p = await processor({
      processors: [{ mapping: 'root = if this.drop == true { deleted() } else { this.n.uppercase() }' }],
    });
    const [out] = await run(p, batchOf('{"n":1}', '{"drop":true}', '{"n":"a"}'));
    assert.equal(out!.length, 2);
    assert.ok(out![0]!.error);
    assert.equal(out![1]!.text(), 'A');
  });
});

describe('select_parts processor', () => {
  it('picks messages by index in the order given, counting negative indexes from the end', async () => {
    const p = await processor({ select_parts: { parts: [2, 0, -1, 9, -9] } });
    assert.deepEqual(texts(await run(p, batchOf('a', 'b', 'c', 'd'))), [['c', 'a', 'd']]);
  });

  it('drops a batch none of whose indexes exist', async () => {
    const p = await processor({ select_parts: { parts: [5] } });
    assert.deepEqual(await run(p, batchOf('a', 'b')), []);
  });
});

describe('insert_part processor', () => {
  it('appends by default, with the first message metadata and interpolated content', async () => {
    const p = await processor({ insert_part: { content: 'count ${! batch_size() } from ${! @src }' } });
    const [out] = await run(p, [new Message('a', new Map([['src', 'x']])), new Message('b')]);
    assert.deepEqual(
      out!.map((m) => m.text()),
      ['a', 'b', 'count 2 from x'],
    );
    assert.equal(out![2]!.getMeta('src'), 'x');
  });

  it('inserts at an index, negative from the end, clamped at either end', async () => {
    const at = async (index: number) =>
      texts(await run(await processor({ insert_part: { index, content: 'N' } }), batchOf('a', 'b')));
    assert.deepEqual(await at(0), [['N', 'a', 'b']]);
    assert.deepEqual(await at(1), [['a', 'N', 'b']]);
    assert.deepEqual(await at(-2), [['a', 'N', 'b']]);
    assert.deepEqual(await at(7), [['a', 'b', 'N']]);
    assert.deepEqual(await at(-9), [['N', 'a', 'b']]);
  });
});

describe('parallel processor', () => {
  /** A processor that counts how many calls are running at once, each waiting for a release. */
  function gate() {
    let running = 0;
    let peak = 0;
    const waiting: Array<() => void> = [];
    const p: Processor = {
      async process(batch) {
        running++;
        peak = Math.max(peak, running);
        await new Promise<void>((r) => waiting.push(r));
        running--;
        return [batch.map((m) => Message.fromStructured({ done: m.text() }))];
      },
      async close() {},
    };
    return {
      p,
      peak: () => peak,
      waiting,
    };
  }

  async function releaseAll(waiting: Array<() => void>, expected: number) {
    for (let released = 0; released < expected; ) {
      const next = waiting.shift();
      if (next) {
        next();
        released++;
      } else await new Promise((r) => setImmediate(r));
    }
  }

  it('processes up to cap messages at once and keeps their order', async () => {
    const env = createTestEnv();
    const g = gate();
    await env.resources.set('processor', 'gate', g.p, {});
    const p = await processor({ parallel: { cap: 2, processors: [{ resource: 'gate' }] } }, env);
    const done = run(p, batchOf('a', 'b', 'c', 'd', 'e'));
    await releaseAll(g.waiting, 5);
    assert.deepEqual(texts(await done), [
      ['{"done":"a"}', '{"done":"b"}', '{"done":"c"}', '{"done":"d"}', '{"done":"e"}'],
    ]);
    assert.equal(g.peak(), 2);
  });

  it('with cap 0 processes every message at once, each as a batch of one', async () => {
    const env = createTestEnv();
    const g = gate();
    await env.resources.set('processor', 'gate', g.p, {});
    const p = await processor(
      { parallel: { processors: [{ mutation: 'root.size = batch_size()' }, { resource: 'gate' }] } },
      env,
    );
    const done = run(p, batchOf('{}', '{}', '{}'));
    await releaseAll(g.waiting, 3);
    assert.deepEqual(texts(await done), [
      ['{"done":"{\\"size\\":1}"}', '{"done":"{\\"size\\":1}"}', '{"done":"{\\"size\\":1}"}'],
    ]);
    assert.equal(g.peak(), 3);
  });

  it('flags a message whose processors fail and keeps the others', async () => {
    const p = await processor({ parallel: { processors: [{ mapping: 'root = this.n.uppercase()' }] } });
    const [out] = await run(p, batchOf('{"n":1}', '{"n":"a"}'));
    assert.ok(out![0]!.error);
    assert.equal(out![1]!.text(), 'A');
    assert.equal(out![1]!.error, null);
  });
});
