import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { buildScanner } from '../../../src/components/scanners/build.js';
import { spec as decompressScanner } from '../../../src/components/scanners/decompress.js';
import type { ByteSource } from '../../../src/components/scanners/scanner.js';
import { ConfigError } from '../../../src/engine/errors.js';
import type { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';
import { fixture, linesTxt } from '../processors/compression_fixtures.js';

async function* chunks(...parts: (string | Buffer)[]): ByteSource {
  for (const p of parts) yield typeof p === 'string' ? Buffer.from(p) : p;
}

async function scan(scanner: unknown, source: ByteSource, name = ''): Promise<Message[]> {
  const built = await buildScanner(scanner, createTestContext());
  const out: Message[] = [];
  for await (const batch of built(source, { name })) {
    assert.ok(batch.length > 0, 'scanners never yield empty batches');
    out.push(...batch);
  }
  return out;
}

const texts = (msgs: Message[]) => msgs.map((m) => m.text());

describe('lines scanner', () => {
  it('splits lines that span chunks, drops \\r before \\n and keeps a last line without newline', async () => {
    const msgs = await scan({ lines: {} }, chunks('al', 'pha\r\nbe', 'ta\n\ngam', 'ma'));
    assert.deepEqual(texts(msgs), ['alpha', 'beta', '', 'gamma']);
  });

  it('finds a multi-byte custom delimiter split across chunks and keeps \\r', async () => {
    const msgs = await scan({ lines: { custom_delimiter: '||' } }, chunks('a\r|', '|b||c'));
    assert.deepEqual(texts(msgs), ['a\r', 'b', 'c']);
  });

  it('omits empty lines when asked', async () => {
    const msgs = await scan({ lines: { omit_empty: true } }, chunks('a\n\n\nb\n'));
    assert.deepEqual(texts(msgs), ['a', 'b']);
  });

  it('fails on a line longer than max_buffer_size', async () => {
    await assert.rejects(scan({ lines: { max_buffer_size: 4 } }, chunks('ok\ntoolong\n')), /max_buffer_size/);
  });

  it('joins a line spread over several chunks, with its \r in one chunk and \n in the next', async () => {
    const msgs = await scan({ lines: {} }, chunks('x\nsp', 'an', 'ning\r', '\nend\r', '\r', '\n', 'tail\r'));
    assert.deepEqual(texts(msgs), ['x', 'spanning', 'end\r', 'tail']);
  });

  it('a line spread over chunks counts every chunk against max_buffer_size, and one that fits passes', async () => {
    await assert.rejects(
      scan({ lines: { max_buffer_size: 5 } }, chunks('ab', 'cd', 'ef', 'g\n')),
      /max_buffer_size/,
    );
    await assert.rejects(scan({ lines: { max_buffer_size: 5 } }, chunks('abc', 'def\n')), /max_buffer_size/);
    const fits = await scan({ lines: { max_buffer_size: 5 } }, chunks('ab', 'cd', 'e\r\nf'));
    assert.deepEqual(texts(fits), ['abcde', 'f']);
  });
});

describe('csv scanner', () => {
  it('emits header-keyed objects, with quoted delimiters, escaped quotes and newlines', async () => {
    const msgs = await scan({ csv: {} }, chunks('name,note\r\nann,"a, ""b""', '\nc"\n\nbob,x\n'));
    assert.deepEqual(
      msgs.map((m) => m.structured()),
      [
        { name: 'ann', note: 'a, "b"\nc' },
        { name: 'bob', note: 'x' },
      ],
    );
  });

  it('emits arrays without a header row and honours custom_delimiter', async () => {
    const msgs = await scan({ csv: { parse_header_row: false, custom_delimiter: ';' } }, chunks('a;b\nc;d'));
    assert.deepEqual(
      msgs.map((m) => m.structured()),
      [
        ['a', 'b'],
        ['c', 'd'],
      ],
    );
  });

  it('rejects a bare quote unless lazy_quotes, and a row of the wrong width', async () => {
    await assert.rejects(scan({ csv: { parse_header_row: false } }, chunks('a"b,c\n')), /bare "/);
    const lazy = await scan({ csv: { parse_header_row: false, lazy_quotes: true } }, chunks('a"b,c\n'));
    assert.deepEqual(lazy[0]?.structured(), ['a"b', 'c']);
    await assert.rejects(scan({ csv: {} }, chunks('a,b\n1,2,3\n')), /wrong number of fields/);
  });

  it('flags bad rows and carries on with continue_on_error', async () => {
    const msgs = await scan({ csv: { continue_on_error: true } }, chunks('a,b\n1,2,3\n4,5\n'));
    assert.equal(msgs.length, 2);
    assert.match(msgs[0]?.error?.message ?? '', /wrong number/);
    assert.deepEqual(msgs[1]?.structured(), { a: '4', b: '5' });
  });
});

describe('other scanners', () => {
  it('to_the_end reads everything as one message', async () => {
    assert.deepEqual(texts(await scan({ to_the_end: {} }, chunks('a\n', 'b\n'))), ['a\nb\n']);
  });

  it('chunker cuts fixed sizes across chunk boundaries', async () => {
    assert.deepEqual(texts(await scan({ chunker: { size: 3 } }, chunks('abcd', 'efg'))), ['abc', 'def', 'g']);
  });

  it('decompress inflates gzip and hands the bytes to its inner scanner', async () => {
    const gz = gzipSync(Buffer.from('one\ntwo\n'));
    const msgs = await scan(
      { decompress: { algorithm: 'gzip', into: { lines: {} } } },
      chunks(gz.subarray(0, 5), gz.subarray(5)),
    );
    assert.deepEqual(texts(msgs), ['one', 'two']);
  });

  it('decompress reads lz4 frames and bzip2 streams made by the command line tools', async () => {
    const lz4 = fixture('lines-linked-64k.txt.lz4');
    const lines = await scan(
      { decompress: { algorithm: 'lz4', into: { lines: {} } } },
      chunks(lz4.subarray(0, 100), lz4.subarray(100, 5000), lz4.subarray(5000)),
    );
    assert.equal(lines.length, 4000);
    assert.equal(texts(lines).join('\n') + '\n', linesTxt());
    const bz = fixture('two-streams.bz2');
    const msgs = await scan(
      { decompress: { algorithm: 'bzip2', into: { lines: {} } } },
      chunks(bz.subarray(0, 7), bz.subarray(7)),
    );
    assert.deepEqual(texts(msgs), ['first', 'second']);
  });

  it('decompress accepts the reference algorithms it cannot run at lint, and fails the build in one line', async () => {
    const ctx = createTestContext();
    for (const algorithm of ['snappy', 'zstd']) {
      assert.deepEqual(decompressScanner.lint?.({ algorithm, into: { to_the_end: {} } }), []);
      await assert.rejects(
        () => buildScanner({ decompress: { algorithm } }, ctx, 'root.input.file.scanner'),
        (err: Error) =>
          err instanceof ConfigError &&
          err.message.startsWith(
            `root.input.file.scanner.decompress.algorithm: ${algorithm} is not supported`,
          ) &&
          !err.message.includes('\n'),
      );
    }
    // Nested scanners name their own place.
    await assert.rejects(
      () =>
        buildScanner(
          { skip_bom: { into: { decompress: { algorithm: 'snappy' } } } },
          ctx,
          'root.input.stdin.scanner',
        ),
      /^ConfigError: root\.input\.stdin\.scanner\.skip_bom\.into\.decompress\.algorithm: snappy/,
    );
    await assert.rejects(
      () => buildScanner({ decompress: { algorithm: 'lzma' } }, ctx),
      /unknown algorithm lzma/,
    );
  });

  it('skip_bom strips a BOM split across chunks', async () => {
    const msgs = await scan(
      { skip_bom: { into: { lines: {} } } },
      chunks(Buffer.from([0xef, 0xbb]), Buffer.from([0xbf, 0x61, 0x0a])),
    );
    assert.deepEqual(texts(msgs), ['a']);
  });

  it('re_match starts a message at every match', async () => {
    const msgs = await scan(
      { re_match: { pattern: '(?m)^\\d\\d:\\d\\d' } },
      chunks('pre\n10:00 a\n  more\n1', '1:00 b\n'),
    );
    assert.deepEqual(texts(msgs), ['pre\n', '10:00 a\n  more\n', '11:00 b\n']);
  });

  it('json_documents parses concatenated documents split anywhere', async () => {
    const msgs = await scan({ json_documents: {} }, chunks('{"a":"}"}\n[1,', '2] 3 "x"'));
    assert.deepEqual(
      msgs.map((m) => m.structured()),
      [{ a: '}' }, [1, 2], 3, 'x'],
    );
  });

  it('json_array emits each element', async () => {
    const msgs = await scan({ json_array: {} }, chunks('[{"a":1},', '2]'));
    assert.deepEqual(
      msgs.map((m) => m.structured()),
      [{ a: 1 }, 2],
    );
  });

  it('switch picks the scanner by source name', async () => {
    const cases = {
      switch: [{ re_match_name: '\\.csv$', scanner: { csv: {} } }, { scanner: { to_the_end: {} } }],
    };
    assert.deepEqual((await scan(cases, chunks('a\n1\n'), 'x.csv'))[0]?.structured(), { a: '1' });
    assert.deepEqual(texts(await scan(cases, chunks('a\n1\n'), 'x.txt')), ['a\n1\n']);
  });
});

/** Every message a scanner yields before it fails, and the failure. */
async function scanUntilError(
  scanner: unknown,
  source: ByteSource,
): Promise<{ got: string[]; error: string }> {
  const built = await buildScanner(scanner, createTestContext());
  const got: string[] = [];
  try {
    for await (const batch of built(source, {})) got.push(...texts(batch));
  } catch (err) {
    return { got, error: (err as Error).message };
  }
  return { got, error: '' };
}

describe('a scanner that fails midway', () => {
  const good = Array.from({ length: 50 }, (_, i) => `line${i}`);

  it('lines: hands out the lines before an over-long one in the same chunk, then fails', async () => {
    const text = `${good.join('\n')}\n${'x'.repeat(200)}\nafter\n`;
    const result = await scanUntilError({ lines: { max_buffer_size: 100 } }, chunks(text));
    assert.deepEqual(result.got, good);
    assert.match(result.error, /exceeds max_buffer_size \(100 bytes\)/);
  });

  it('lines: also when the over-long line is the unfinished end of the chunk', async () => {
    const text = `${good.join('\n')}\n${'x'.repeat(200)}`;
    const result = await scanUntilError({ lines: { max_buffer_size: 100 } }, chunks(text, '\nafter\n'));
    assert.deepEqual(result.got, good);
    assert.match(result.error, /exceeds max_buffer_size/);
  });

  it('lines with a custom delimiter: the same', async () => {
    const text = `${good.join('|')}|${'x'.repeat(200)}|after`;
    const result = await scanUntilError(
      { lines: { custom_delimiter: '|', max_buffer_size: 100 } },
      chunks(text),
    );
    assert.deepEqual(result.got, good);
    assert.match(result.error, /exceeds max_buffer_size/);
  });

  it('json_documents: hands out the documents before one that does not parse', async () => {
    const docs = Array.from({ length: 20 }, (_, i) => JSON.stringify({ i }));
    const result = await scanUntilError(
      { json_documents: {} },
      chunks(`${docs.join('\n')}\n{bad}\n{"i":99}`),
    );
    assert.deepEqual(result.got, docs);
    assert.notEqual(result.error, '');
  });

  it('csv: hands out the rows before one with the wrong number of fields', async () => {
    const result = await scanUntilError({ csv: {} }, chunks('a,b\n1,2\n3,4\n5,6,7\n8,9\n'));
    assert.deepEqual(result.got, ['{"a":"1","b":"2"}', '{"a":"3","b":"4"}']);
    assert.match(result.error, /wrong number of fields/);
  });

  it('re_match: hands out the matches before the buffer overflows', async () => {
    const text = `${good.map((l) => `START ${l}`).join('')}START ${'x'.repeat(200)}`;
    const result = await scanUntilError(
      { re_match: { pattern: 'START', max_buffer_size: 100 } },
      chunks(text),
    );
    assert.deepEqual(
      result.got,
      good.map((l) => `START ${l}`),
    );
    assert.match(result.error, /exceeds max_buffer_size/);
  });
});
