// `archive` joins a batch into one message; `unarchive` takes it apart again, for every format.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { spec as archive } from '../../../src/components/processors/archive.js';
import { ConfigError } from '../../../src/engine/errors.js';
import { createTestContext } from '../../helpers/context.js';
import { archiveBatch, messages, unarchiveBatch } from './archive_helpers.js';

const CONTENTS = ['{"id":1}', 'two\twords', '', '[3]'];

describe('archive processor', () => {
  const roundTrips: [string, string][] = [
    ['binary', 'binary'],
    ['lines', 'lines'],
    ['tar', 'tar'],
    ['zip', 'zip'],
  ];
  for (const [packFormat, unpackFormat] of roundTrips) {
    it(`round-trips a batch through ${packFormat}, keeping the first message's metadata`, async () => {
      const packed = await archiveBatch(packFormat, messages(CONTENTS), `\${! meta("n") }.txt`);
      assert.equal(packed.length, 1);
      assert.equal(packed[0]?.length, 1, 'one message for the whole batch');
      const archived = packed[0]![0]!;
      assert.equal(archived.error, null);
      assert.equal(archived.getMeta('n'), '0');
      const [unpacked] = await unarchiveBatch(unpackFormat, [archived]);
      assert.deepEqual(
        unpacked!.map((m) => m.text()),
        CONTENTS,
      );
      assert.ok(unpacked!.every((m) => m.getMeta('n') === '0' && m.error === null));
    });
  }

  it('names tar and zip entries with the interpolated path', async () => {
    for (const format of ['tar', 'zip']) {
      const [[archived]] = await archiveBatch(
        format,
        messages(['a', 'b', 'c']),
        `dir/\${! meta("n") }-\${! content() }.txt`,
      );
      const [unpacked] = await unarchiveBatch(format, [archived!]);
      assert.deepEqual(
        unpacked!.map((m) => [m.getMeta('archive_filename'), m.text()]),
        [
          ['dir/0-a.txt', 'a'],
          ['dir/1-b.txt', 'b'],
          ['dir/2-c.txt', 'c'],
        ],
        format,
      );
    }
  });

  it('keeps names a plain tar header cannot hold, repeated names and the default empty name', async () => {
    const long = `${'deep/'.repeat(40)}ü-file.json`;
    for (const format of ['tar', 'zip']) {
      const batch = messages(['x', 'y']);
      batch[0]!.setMeta('name', long);
      batch[1]!.setMeta('name', long);
      const [[archived]] = await archiveBatch(format, batch, `\${! @name }`);
      const [unpacked] = await unarchiveBatch(format, [archived!]);
      assert.deepEqual(
        unpacked!.map((m) => m.getMeta('archive_filename')),
        [long, long],
        format,
      );
      const [[unnamed]] = await archiveBatch(format, messages(['p', 'q']));
      const [again] = await unarchiveBatch(format, [unnamed!]);
      assert.deepEqual(
        again!.map((m) => [m.getMeta('archive_filename'), m.text()]),
        [
          ['', 'p'],
          ['', 'q'],
        ],
        format,
      );
    }
  });

  it('writes the binary blob of the reference: a count, then each length and content', async () => {
    const [[archived]] = await archiveBatch('binary', messages(['ab', '', 'c']));
    assert.deepEqual([...archived!.bytes()], [0, 0, 0, 3, 0, 0, 0, 2, 97, 98, 0, 0, 0, 0, 0, 0, 0, 1, 99]);
  });

  it('concatenates, joins lines and builds a JSON array', async () => {
    const batch = () => messages(['{"a":1}', '2', '"three"']);
    assert.equal((await archiveBatch('concatenate', batch()))[0]![0]!.text(), '{"a":1}2"three"');
    assert.equal((await archiveBatch('lines', batch()))[0]![0]!.text(), '{"a":1}\n2\n"three"');
    const [[array]] = await archiveBatch('json_array', batch());
    assert.deepEqual(array!.structured(), [{ a: 1 }, 2, 'three']);
    assert.equal(array!.text(), '[{"a":1},2,"three"]');
  });

  it('concatenated JSON comes back apart with json_documents', async () => {
    const [[joined]] = await archiveBatch('concatenate', messages(['{"a":1}', '[2]', '"three"', '4']));
    const [docs] = await unarchiveBatch('json_documents', [joined!]);
    assert.deepEqual(
      docs!.map((m) => m.text()),
      ['{"a":1}', '[2]', '"three"', '4'],
    );
  });

  // GNU tar and Info-ZIP unzip are on the project's machines (Debian).
  it('writes tar and zip that the standard tools read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nekton-archive-'));
    try {
      for (const format of ['tar', 'zip']) {
        const [[archived]] = await archiveBatch(
          format,
          messages(['hello', 'world']),
          `f\${! meta("n") }.txt`,
        );
        const file = join(dir, `out.${format}`);
        writeFileSync(file, archived!.bytes());
        const listing =
          format === 'tar'
            ? execFileSync('tar', ['tvf', file]).toString()
            : execFileSync('unzip', ['-Z', '-l', file]).toString();
        assert.match(listing, /-rw-rw-rw-.* f0\.txt/, `${format}: ${listing}`);
        assert.match(listing, /f1\.txt/);
        const second =
          format === 'tar'
            ? execFileSync('tar', ['xOf', file, 'f1.txt']).toString()
            : execFileSync('unzip', ['-p', file, 'f1.txt']).toString();
        assert.equal(second, 'world');
      }
      execFileSync('unzip', ['-tq', join(dir, 'out.zip')]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('flags every message of the batch and passes them on unchanged when one is not JSON', async () => {
    const out = await archiveBatch('json_array', messages(['{"a":1}', 'not json', '[]']));
    assert.equal(out.length, 1);
    assert.deepEqual(
      out[0]!.map((m) => m.text()),
      ['{"a":1}', 'not json', '[]'],
    );
    for (const m of out[0]!) assert.match(m.error?.message ?? '', /failed to parse message as JSON/);
    assert.deepEqual(
      out[0]!.map((m) => m.getMeta('n')),
      ['0', '1', '2'],
    );
  });

  it('returns nothing for an empty batch', async () => {
    assert.deepEqual(await archiveBatch('tar', []), []);
  });

  it('refuses a format it does not know when built', async () => {
    await assert.rejects(
      async () =>
        archive.build({ format: 'rar', path: '' }, createTestContext({ path: 'root.pipeline.processors.0' })),
      (err: Error) =>
        err instanceof ConfigError &&
        /processors\.0\.archive\.format: archive format not recognised: rar/.test(err.message),
    );
  });
});
