// The string_split processor: content to an array of the parts between delimiters.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Message } from '../../../src/message/message.js';
import { batchOf, processor, run, texts } from '../bloblang_components/build.js';

describe('string_split processor', () => {
  it('splits at newlines by default, keeping empty parts', async () => {
    const p = await processor({ string_split: {} });
    assert.deepEqual(texts(await run(p, batchOf('a\nb\n\nc\n'))), [['["a","b","","c",""]']]);
  });

  it('splits at a multi-byte delimiter and turns empty parts into null with empty_as_null', async () => {
    const p = await processor({ string_split: { delimiter: '::', empty_as_null: true } });
    assert.deepEqual(texts(await run(p, batchOf('::x::y::::'))), [['[null,"x","y",null,null]']]);
  });

  it('splits into characters with an empty delimiter', async () => {
    const p = await processor({ string_split: { delimiter: '' } });
    assert.deepEqual(texts(await run(p, batchOf('añ€'))), [['["a","ñ","€"]']]);
  });

  it('emits bytes values with emit_bytes, which a mapping sees as bytes', async () => {
    const p = await processor({ string_split: { delimiter: ',', emit_bytes: true } });
    const [[out]] = await run(p, [new Message('hi,yo', new Map([['k', 'v']]))]);
    const parts = out!.structured() as unknown[];
    assert.ok(parts[0] instanceof Uint8Array);
    assert.equal(Buffer.from(parts[1] as Uint8Array).toString(), 'yo');
    assert.equal(out!.getMeta('k'), 'v');
    const typed = await processor({ mapping: 'root = this.map_each(p -> p.type())' });
    assert.deepEqual(texts(await run(typed, [out!])), [['["bytes","bytes"]']]);
  });

  it('leaves each message of a batch its own array and the input untouched', async () => {
    const p = await processor({ string_split: { delimiter: ' ' } });
    const input = batchOf('a b', 'c');
    assert.deepEqual(texts(await run(p, input)), [['["a","b"]', '["c"]']]);
    assert.equal(input[0]!.text(), 'a b');
  });
});
