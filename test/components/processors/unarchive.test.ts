// `unarchive` on archives and documents made elsewhere, on malformed input and on zip bombs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deflateRawSync } from 'node:zlib';
import { Zip, ZipDeflate, ZipPassThrough, zipSync } from 'fflate';
import { spec as unarchive } from '../../../src/components/processors/unarchive.js';
import { ConfigError } from '../../../src/engine/errors.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';
import { archiveFixture, unarchiveBatch, unarchiveOne } from './archive_helpers.js';

const LONG_NAME = `${'long-name-'.repeat(12)}txt`;

const view = (msgs: Message[], ...meta: string[]) =>
  msgs.map((m) => [m.text(), ...meta.map((key) => m.getMeta(key))]);

describe('unarchive processor', () => {
  it('reads GNU and PAX tars, long names, directories and all', async () => {
    assert.deepEqual(view(await unarchiveOne('tar', archiveFixture('gnu.tar')), 'archive_filename'), [
      ['alpha\n', 'a.txt'],
      ['', 'docs/'],
      ['{"id":2}', 'docs/b.json'],
      ['gamma', LONG_NAME],
    ]);
    assert.deepEqual(view(await unarchiveOne('tar', archiveFixture('pax.tar')), 'archive_filename'), [
      ['alpha\n', 'a.txt'],
      ['gamma', LONG_NAME],
    ]);
  });

  it('reads an Info-ZIP zip', async () => {
    assert.deepEqual(view(await unarchiveOne('zip', archiveFixture('infozip.zip')), 'archive_filename'), [
      ['alpha\n', 'a.txt'],
      ['', 'docs/'],
      ['{"id":2}', 'docs/b.json'],
    ]);
  });

  it('copies the original metadata to every new message', async () => {
    const msg = new Message('a\nb');
    msg.setMeta('source', 'here');
    const [out] = await unarchiveBatch('lines', [msg]);
    assert.deepEqual(view(out!, 'source'), [
      ['a', 'here'],
      ['b', 'here'],
    ]);
  });

  it('splits lines as the reference does: a trailing newline leaves an empty last message', async () => {
    assert.deepEqual(view(await unarchiveOne('lines', 'one\ntwo\n')), [['one'], ['two'], ['']]);
  });

  it('expands JSON arrays, maps (keys in archive_key) and document streams', async () => {
    assert.deepEqual(view(await unarchiveOne('json_array', '[{"a":1}, "two", 3, null]')), [
      ['{"a":1}'],
      ['"two"'],
      ['3'],
      ['null'],
    ]);
    assert.deepEqual(view(await unarchiveOne('json_map', '{"b": [1], "a": "x"}'), 'archive_key'), [
      ['"x"', 'a'],
      ['[1]', 'b'],
    ]);
    assert.deepEqual(view(await unarchiveOne('json_documents', '{"a":1}\n[2] "three"4 {"b":\n5}')), [
      ['{"a":1}'],
      ['[2]'],
      ['"three"'],
      ['4'],
      ['{"b":5}'],
    ]);
  });

  it('turns CSV rows into objects keyed by the header, with a custom delimiter too', async () => {
    assert.deepEqual(view(await unarchiveOne('csv', 'id,name\n1,"Ada, L"\n2,Bob\n')), [
      ['{"id":"1","name":"Ada, L"}'],
      ['{"id":"2","name":"Bob"}'],
    ]);
    assert.deepEqual(view(await unarchiveOne('csv:\t', 'id\tname\n1\tAda\n')), [['{"id":"1","name":"Ada"}']]);
    assert.deepEqual(view(await unarchiveOne('csv:;', 'a;__proto__\nx;y\n')), [
      ['{"__proto__":"y","a":"x"}'],
    ]);
  });

  it('flags a message that is not in the format and passes it on unchanged', async () => {
    const cases: [string, string | Uint8Array, RegExp][] = [
      ['tar', 'this is not a tar archive', /invalid tar archive/],
      ['zip', 'PK this is not a zip', /central directory/],
      ['binary', new Uint8Array([0, 0, 0, 2, 0, 0, 0, 9, 1]), /unexpected format/],
      ['json_array', '{"a":1}', /JSON array: invalid type 'map\[string\]interface \{\}'/],
      ['json_array', '[1,', /failed to parse message into JSON array/],
      ['json_map', '[1]', /JSON map: invalid type '\[\]interface \{\}'/],
      ['json_documents', '{"a":1} {"b":', /failed to parse message as JSON documents/],
      ['csv', 'a,b\n1,2\n3\n', /failed to parse message as csv: record on line 3: wrong number of fields/],
    ];
    for (const [format, content, error] of cases) {
      const input = new Message(content);
      input.setMeta('kept', 'yes');
      const out = await unarchiveBatch(format, [input]);
      assert.equal(out.length, 1, format);
      assert.equal(out[0]!.length, 1, format);
      const [failed] = out[0]!;
      assert.match(failed!.error?.message ?? '', error, format);
      assert.deepEqual(Buffer.from(failed!.bytes()), Buffer.from(content), format);
      assert.equal(failed!.getMeta('kept'), 'yes');
    }
  });

  it('flags a tar whose header checksum is wrong or that is cut short', async () => {
    const tar = Buffer.from(archiveFixture('pax.tar'));
    const cut = await unarchiveOne('tar', tar.subarray(0, 1200));
    assert.match(cut[0]?.error?.message ?? '', /truncated/);
    const corrupt = Buffer.from(tar);
    corrupt[0] = (corrupt[0]! + 1) & 0xff;
    const bad = await unarchiveOne('tar', corrupt);
    assert.equal(bad.length, 1);
    assert.match(bad[0]?.error?.message ?? '', /checksum/);
  });

  it('flags a zip whose file does not match its checksum', async () => {
    const zip = Buffer.from(zipSync({ 'a.txt': [new TextEncoder().encode('hello'), { level: 0 }] }));
    const at = zip.indexOf('hello');
    zip[at] = 'j'.charCodeAt(0);
    const out = await unarchiveOne('zip', zip);
    assert.equal(out.length, 1);
    assert.match(out[0]?.error?.message ?? '', /zip: checksum error/);
  });

  it('treats every other message of the batch on its own', async () => {
    const [out] = await unarchiveBatch('json_array', [
      new Message('[1,2]'),
      new Message('nope'),
      new Message('[3]'),
    ]);
    assert.deepEqual(
      out!.map((m) => [m.text(), m.error === null]),
      [
        ['1', true],
        ['2', true],
        ['nope', false],
        ['3', true],
      ],
    );
  });

  it('refuses unknown formats and bad csv delimiters when built', async () => {
    for (const [format, error] of [
      ['rar', /archive format not recognised: rar/],
      ['csv:', /non-empty delimiter/],
      ['csv:ab', /single character delimiter/],
      ['csv:"', /cannot use/],
    ] as const) {
      await assert.rejects(
        async () => unarchive.build({ format }, createTestContext({ path: 'root.pipeline.processors.0' })),
        (err: Error) =>
          err instanceof ConfigError && error.test(err.message) && /unarchive\.format/.test(err.message),
        format,
      );
    }
  });
});

describe('unarchive processor on zip bombs', () => {
  // A low limit keeps the bombs small and quick; the default is tested in limit.test.ts.
  const LIMIT = 4 * 1024 * 1024;
  let saved: string | undefined;
  before(() => {
    saved = process.env.NEKTON_MAX_DECOMPRESSED_BYTES;
    process.env.NEKTON_MAX_DECOMPRESSED_BYTES = String(LIMIT);
  });
  after(() => {
    if (saved === undefined) delete process.env.NEKTON_MAX_DECOMPRESSED_BYTES;
    else process.env.NEKTON_MAX_DECOMPRESSED_BYTES = saved;
  });

  /** A zip of deflated files, each `size` zero bytes. */
  function zeros(count: number, size: number): Buffer {
    const chunks: Uint8Array[] = [];
    const zip = new Zip((err, chunk) => {
      if (err) throw err;
      chunks.push(chunk);
    });
    for (let i = 0; i < count; i++) {
      const file = new ZipDeflate(`zero-${i}`, { level: 9 });
      zip.add(file);
      file.push(new Uint8Array(size), true);
    }
    zip.end();
    return Buffer.concat(chunks);
  }

  it('fails a file that inflates past the limit', async () => {
    const bomb = zeros(1, LIMIT + 1024);
    assert.ok(bomb.length < LIMIT / 100, 'a real bomb: tiny packed, huge unpacked');
    const out = await unarchiveOne('zip', bomb);
    assert.equal(out.length, 1);
    assert.match(out[0]?.error?.message ?? '', /exceeds the limit of 4194304 bytes/);
    assert.equal(out[0]!.byteSize(), bomb.length, 'the failed message passes on unchanged');
  });

  it('fails many files that together inflate past the limit', async () => {
    const out = await unarchiveOne('zip', zeros(8, LIMIT / 4));
    assert.equal(out.length, 1);
    assert.match(out[0]?.error?.message ?? '', /exceeds the limit/);
  });

  it('fails a file that inflates to more than its header declares', async () => {
    // A header claiming about 8 KB (the packed size) over deflated data of 8 MiB: the check of
    // declared sizes alone would let it through.
    const packed = deflateRawSync(Buffer.alloc(2 * LIMIT));
    const chunks: Uint8Array[] = [];
    const zip = new Zip((err, chunk) => {
      if (err) throw err;
      chunks.push(chunk);
    });
    const file = new ZipPassThrough('liar');
    file.compression = 8;
    zip.add(file);
    file.push(packed, true);
    zip.end();
    const out = await unarchiveOne('zip', Buffer.concat(chunks));
    assert.equal(out.length, 1);
    assert.match(out[0]?.error?.message ?? '', /too many bytes in the stream/);
  });

  it('still unpacks a zip just under the limit', async () => {
    const out = await unarchiveOne('zip', zeros(2, LIMIT / 2 - 1));
    assert.deepEqual(
      out.map((m) => [m.error, m.byteSize()]),
      [
        [null, LIMIT / 2 - 1],
        [null, LIMIT / 2 - 1],
      ],
    );
  });
});
