import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { parseInterpolation } from '../../../src/bloblang/index.js';
import { encodeBatches, parseOutputCodec } from '../../../src/components/outputs/codec.js';
import { FileWriter } from '../../../src/components/outputs/file.js';
import { spec as reject } from '../../../src/components/outputs/reject.js';
import { StreamWriter } from '../../../src/components/outputs/stdout.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';

const batch = (...texts: string[]) => texts.map((t) => new Message(t));

describe('file output', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nekton-file-out-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('creates directories and appends lines across writes (no double newline)', async () => {
    const path = join(dir, 'deep', 'er', 'out.txt');
    const writer = new FileWriter(parseInterpolation(path), parseOutputCodec('lines'));
    await writer.connect();
    await writer.write(batch('a', 'b\n'));
    await writer.write(batch('c'));
    await writer.close();
    assert.equal(await readFile(path, 'utf8'), 'a\nb\nc\n');
  });

  it('replaces the whole file with all-bytes and uses custom delimiters', async () => {
    const whole = join(dir, 'whole.bin');
    const w1 = new FileWriter(parseInterpolation(whole), parseOutputCodec('all-bytes'));
    await w1.write(batch('first'));
    await w1.write(batch('second'));
    assert.equal(await readFile(whole, 'utf8'), 'second');
    const delim = join(dir, 'delim.txt');
    const w2 = new FileWriter(parseInterpolation(delim), parseOutputCodec('delim:|'));
    await w2.write(batch('x', 'y'));
    await w2.close();
    assert.equal(await readFile(delim, 'utf8'), 'x|y|');
  });
});

describe('stdout output', () => {
  it('writes a batch in one write call, each message followed by a newline', async () => {
    const sink = new PassThrough();
    const writes: string[] = [];
    sink.on('data', (c: Buffer) => writes.push(c.toString()));
    const writer = new StreamWriter(sink, parseOutputCodec('lines'));
    await writer.connect();
    await writer.write(batch('one', 'two'));
    assert.deepEqual(writes, ['one\ntwo\n']);
  });

  it('fails writes after a broken pipe instead of crashing', async () => {
    const sink = new PassThrough();
    const writer = new StreamWriter(sink, parseOutputCodec('lines'));
    await writer.connect();
    sink.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    await assert.rejects(writer.write(batch('x')), /EPIPE/);
  });
});

describe('output encoding of lines still inside their chunk', () => {
  // What the lines scanner makes of `a\nbb\r\ncc\nd`: views of one chunk, the \r dropped.
  const chunk = Buffer.from('a\nbb\r\ncc\nd');
  const lines = () => [
    Message.ofChunk(chunk, 0, 1),
    Message.ofChunk(chunk, 2, 4),
    Message.ofChunk(chunk, 6, 8),
    Message.ofChunk(chunk, 9, 10),
  ];

  it('gives the same bytes as the messages one by one, across batches and a \r the scanner dropped', () => {
    const [a, b, c, d] = lines();
    const out = encodeBatches([[a!, b!], [c!], [new Message('x\n'), d!]], parseOutputCodec('lines'));
    assert.equal(out.toString(), 'a\nbb\ncc\nx\nd\n');
  });

  it('keeps the order when lines of one chunk are written out of their chunk order', () => {
    const [a, b, c, d] = lines();
    const out = encodeBatches(
      [
        [c!, a!],
        [d!, b!],
      ],
      parseOutputCodec('lines'),
    );
    assert.equal(out.toString(), 'cc\na\nd\nbb\n');
  });

  it('adds no delimiter to a line that already ends with it, and one to an empty line', () => {
    // A scanner that keeps delimiters (or cuts paragraphs) leaves such lines in the chunk.
    const text = Buffer.from('p\n\nq\n');
    const out = encodeBatches(
      [[Message.ofChunk(text, 0, 2), Message.ofChunk(text, 2, 2), Message.ofChunk(text, 3, 4)]],
      parseOutputCodec('lines'),
    );
    assert.equal(out.toString(), 'p\n\nq\n');
    assert.equal(out.length, 5);
  });

  it('uses the codec delimiter, not the one in the chunk', () => {
    const out = encodeBatches([lines()], parseOutputCodec('delim:;'));
    assert.equal(out.toString(), 'a;bb;cc;d;');
    assert.equal(encodeBatches([lines()], parseOutputCodec('append')).toString(), 'abbccd');
  });
});

describe('reject output', () => {
  it('fails every write with its message', async () => {
    const output = await reject.build('not today', createTestContext());
    await assert.rejects(output.write(batch('x')), /not today/);
    await output.close();
  });
});
