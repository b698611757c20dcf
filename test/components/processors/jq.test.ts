// The jq processor: the reference's example and its rules for no, one and many results, raw
// input and output, $metadata, errors and lint.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkInChild } from '../../../src/components/processors/jq_runtime.js';
import { Message } from '../../../src/message/message.js';
import { batchOf, lintComponent, processor, run, texts } from '../bloblang_components/build.js';

describe('jq processor', () => {
  it('runs the reference example query', async () => {
    const p = await processor({
      jq: { query: '{Cities: .locations | map(select(.state == "WA").name) | sort | join(", ") }' },
    });
    const doc =
      '{"locations":[{"name":"Seattle","state":"WA"},{"name":"New York","state":"NY"},{"name":"Bellevue","state":"WA"},{"name":"Olympia","state":"WA"}]}';
    assert.deepEqual(texts(await run(p, batchOf(doc))), [['{"Cities":"Bellevue, Olympia, Seattle"}']]);
  });

  it('drops a message with no result and makes an array of several, per message of a batch', async () => {
    const p = await processor({ jq: { query: '.items[]?' } });
    const out = await run(p, batchOf('{"items":[1,"two",{"x":3}]}', '{"items":[]}', '{"items":[5]}', '{}'));
    assert.deepEqual(texts(out), [['[1,"two",{"x":3}]', '5']]);
  });

  it('reads metadata from $metadata and keeps it on the message', async () => {
    const p = await processor({ jq: { query: '{id: .id, topic: $metadata.topic}' } });
    const [[out]] = await run(p, [new Message('{"id":7}', new Map([['topic', 'orders']]))]);
    assert.equal(out!.text(), '{"id":7,"topic":"orders"}');
    assert.equal(out!.getMeta('topic'), 'orders');
  });

  it('takes the content as a string with raw, and writes strings unquoted with output_raw', async () => {
    const p = await processor({ jq: { query: 'ascii_upcase, "-", 1', raw: true, output_raw: true } });
    assert.deepEqual(texts(await run(p, batchOf('not json'))), [['NOT JSON-1']]);
    const quoted = await processor({ jq: { query: '.name' } });
    assert.deepEqual(texts(await run(quoted, batchOf('{"name":"x"}'))), [['"x"']]);
    const empty = await processor({ jq: { query: '.name', output_raw: true } });
    assert.deepEqual(texts(await run(empty, batchOf('{"name":""}'))), [['']]);
  });

  it('flags messages whose query fails or that are not JSON, leaving them unchanged, and goes on with the rest', async () => {
    const p = await processor({ jq: { query: '.a + 1' } });
    const exitCode = process.exitCode;
    const [out] = await run(p, batchOf('{"a":"x"}', 'nope', '{"a":1}'));
    // jq's failing exit status must not become the process's.
    assert.equal(process.exitCode, exitCode);
    assert.equal(out!.length, 3);
    assert.equal(out![0]!.text(), '{"a":"x"}');
    assert.match(out![0]!.error!.message, /cannot be added/);
    assert.equal(out![1]!.text(), 'nope');
    assert.ok(out![1]!.error);
    assert.equal(out![2]!.text(), '2');
    assert.equal(out![2]!.error, null);
  });

  it('keeps input and halt to the message at hand', async () => {
    const p = await processor({ jq: { query: 'if .n == 1 then input else .n end' } });
    const [out] = await run(p, batchOf('{"n":1}', '{"n":2}'));
    assert.match(out![0]!.error!.message, /No more inputs/);
    assert.equal(out![1]!.text(), '2');
  });

  it('keeps large integers exact through a query', async () => {
    const p = await processor({ jq: { query: '.' } });
    assert.deepEqual(texts(await run(p, batchOf('{"big":12345678901234567890}'))), [
      ['{"big":12345678901234567890}'],
    ]);
  });

  it('checks a query in a child process while jq is not loaded in this one', () => {
    assert.match(checkInChild('.a | foo') ?? '', /^error compiling jq query: foo\/0 is not defined/);
    assert.equal(checkInChild('.a | $metadata'), null);
  });

  it('does not lint or build a query that does not compile', async () => {
    const lints = lintComponent('processor', 'jq:\n  query: ".a | foo"\n');
    assert.equal(lints.length, 1);
    assert.match(lints[0]!, /^error compiling jq query: foo\/0 is not defined/);
    assert.deepEqual(lintComponent('processor', 'jq:\n  query: ".a | $metadata"\n'), []);
    await assert.rejects(processor({ jq: { query: '.a | (' } }), /error compiling jq query: syntax error/);
  });
});
