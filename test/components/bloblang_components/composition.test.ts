// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Bloblang interpolations, not JS templates
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Message } from '../../../src/message/message.js';
import { batchOf, processor, run, texts } from './build.js';

describe('branch processor', () => {
  it('maps a request, runs processors on it and merges the result back into the original', async () => {
    const p = await processor({
      branch: {
        request_map: 'root = {"q": this.id}',
        processors: [{ mapping: 'root = {"answer": this.q + "!"}' }],
        result_map: 'root.enriched = this.answer',
      },
    });
    const original = new Message('{"id":"x","body":"keep me"}', new Map([['m', 'v']]));
    const [out] = await run(p, [original]);
    assert.equal(out![0]!.text(), '{"body":"keep me","enriched":"x!","id":"x"}');
    assert.equal(out![0]!.getMeta('m'), 'v');
    assert.equal(original.text(), '{"id":"x","body":"keep me"}');
  });

  it('does not copy metadata set in the branch unless result_map does, and @ reads the original', async () => {
    const p = await processor({
      branch: {
        processors: [{ mutation: 'meta inner = "set inside"' }],
        result_map: 'root.seen = metadata("inner")\nroot.outer = @outer',
      },
    });
    const [out] = await run(p, [new Message('{}', new Map([['outer', 'o']]))]);
    assert.equal(out![0]!.text(), '{"outer":"o","seen":"set inside"}');
    assert.equal(out![0]!.getMeta('inner'), undefined);
  });

  it('skips messages whose request map deletes them, leaving them unchanged', async () => {
    const p = await processor({
      branch: {
        request_map: 'root = if this.go { this } else { deleted() }',
        processors: [{ mapping: 'root = {"r": 1}' }],
        result_map: 'root.r = this.r',
      },
    });
    assert.deepEqual(texts(await run(p, batchOf('{"go":true}', '{"go":false}'))), [
      ['{"go":true,"r":1}', '{"go":false}'],
    ]);
  });

  it('flags the original when a child processor fails, without running result_map', async () => {
    const p = await processor({
      branch: {
        processors: [{ mapping: 'root.up = this.n.uppercase()' }],
        result_map: 'root.result = this.up',
      },
    });
    const [out] = await run(p, batchOf('{"n":1}', '{"n":"a"}'));
    assert.equal(out![0]!.text(), '{"n":1}');
    assert.match(out![0]!.error!.message, /^processors failed: /);
    assert.equal(out![1]!.text(), '{"n":"a","result":"A"}');
    assert.equal(out![1]!.error, null);
  });

  it('flags messages whose request map fails', async () => {
    const p = await processor({
      branch: { request_map: 'root = this.a.uppercase()', processors: [{ noop: {} }] },
    });
    const [out] = await run(p, batchOf('{"a":1}'));
    assert.match(out![0]!.error!.message, /^request mapping failed: /);
  });
});

describe('switch processor', () => {
  const cases = [
    { check: 'this.type == "a"', processors: [{ mutation: 'root.case = "a"' }] },
    { check: 'this.type == "b"', processors: [{ mutation: 'root.case = "b"' }] },
  ];

  it('runs the processors of the first passing case and keeps the original order', async () => {
    const p = await processor({ switch: cases });
    const [out] = await run(p, batchOf('{"type":"b"}', '{"type":"c"}', '{"type":"a"}'));
    assert.deepEqual(
      out!.map((m) => m.text()),
      ['{"case":"b","type":"b"}', '{"type":"c"}', '{"case":"a","type":"a"}'],
    );
  });

  it('falls through to the next case without testing its check', async () => {
    const p = await processor({
      switch: [
        { check: 'this.n > 1', processors: [{ mutation: 'root.big = true' }], fallthrough: true },
        { check: 'false', processors: [{ mutation: 'root.second = true' }] },
      ],
    });
    assert.deepEqual(texts(await run(p, batchOf('{"n":2}', '{"n":1}'))), [
      ['{"big":true,"n":2,"second":true}', '{"n":1}'],
    ]);
  });

  it('flags a message whose check fails and tests it against no other case', async () => {
    const p = await processor({
      switch: [
        { check: 'this.n.uppercase() == "X"', processors: [{ mutation: 'root.first = true' }] },
        { processors: [{ mutation: 'root.second = true' }] },
      ],
    });
    const [out] = await run(p, batchOf('{"n":1}'));
    assert.equal(out![0]!.text(), '{"n":1}');
    assert.ok(out![0]!.error);
  });

  it('works with asynchronous child processors', async () => {
    const p = await processor({
      switch: [
        {
          check: 'this.slow',
          processors: [{ sleep: { duration: '1ms' } }, { mutation: 'root.done = true' }],
        },
      ],
    });
    const out = p.process(batchOf('{"slow":true}', '{"slow":false}'));
    assert.ok(out instanceof Promise);
    assert.deepEqual(texts(await out), [['{"done":true,"slow":true}', '{"slow":false}']]);
  });

  it('refuses a case without processors', async () => {
    await assert.rejects(processor({ switch: [{ check: 'true' }] }), /case has no processors/);
  });
});

describe('while processor', () => {
  it('loops while the check passes', async () => {
    const p = await processor({
      while: { check: 'this.n < 5', processors: [{ mapping: 'root.n = this.n + 1' }] },
    });
    assert.deepEqual(texts(await run(p, batchOf('{"n":0}'))), [['{"n":5}']]);
  });

  it('stops at max_loops, and runs once first with at_least_once', async () => {
    const capped = await processor({
      while: { check: 'true', max_loops: 3, processors: [{ mapping: 'root.n = this.n + 1' }] },
    });
    assert.deepEqual(texts(await run(capped, batchOf('{"n":0}'))), [['{"n":3}']]);
    const once = await processor({
      while: { check: 'false', at_least_once: true, processors: [{ mapping: 'root.n = this.n + 1' }] },
    });
    assert.deepEqual(texts(await run(once, batchOf('{"n":0}'))), [['{"n":1}']]);
  });

  it('ends when the processors leave no messages, and when the check fails', async () => {
    const dropping = await processor({
      while: { check: 'true', processors: [{ mapping: 'root = deleted()' }] },
    });
    assert.deepEqual(await run(dropping, batchOf('{}')), []);
    const broken = await processor({
      while: { check: 'this.nope.uppercase() == "x"', processors: [{ noop: {} }] },
    });
    assert.deepEqual(texts(await run(broken, batchOf('{}'))), [['{}']]);
  });

  it('requires a check', async () => {
    await assert.rejects(processor({ while: { processors: [{ noop: {} }] } }), /a check query is required/);
  });
});

describe('group_by_value processor', () => {
  it('splits a batch by value, groups in order of first appearance', async () => {
    const p = await processor({ group_by_value: { value: '${! this.k }' } });
    assert.deepEqual(texts(await run(p, batchOf('{"k":"b","i":1}', '{"k":"a","i":2}', '{"k":"b","i":3}'))), [
      ['{"k":"b","i":1}', '{"k":"b","i":3}'],
      ['{"k":"a","i":2}'],
    ]);
  });
});
