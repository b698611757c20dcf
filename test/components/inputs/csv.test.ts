// The `csv` input: rows as objects or arrays with their metadata, batches, delete_on_finish after acks.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { inputOf, lintYaml, readN } from './io_support.js';

function csvFile(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'nekton-csv-')), name);
  writeFileSync(path, text);
  return path;
}

describe('csv input', () => {
  it('reads rows as objects keyed by the header, with header and path metadata', async () => {
    const path = csvFile('a.csv', 'foo,bar\nfirst foo,"first, bar"\n\nsecond foo,second bar\n');
    const input = await inputOf(`csv:\n  paths: [ ${path} ]\n`);
    const txns = await readN(input, 2);
    assert.deepEqual(
      txns.map((t) => t.batch[0]!.structured()),
      [
        { foo: 'first foo', bar: 'first, bar' },
        { foo: 'second foo', bar: 'second bar' },
      ],
    );
    assert.deepEqual(txns[0]!.batch[0]!.getMeta('header'), ['foo', 'bar']);
    assert.equal(txns[0]!.batch[0]!.getMeta('path'), path);
    assert.equal(typeof txns[0]!.batch[0]!.getMeta('mod_time_unix'), 'number');
    for (const t of txns) await t.ack(null);
    assert.equal(await input.read(), null);
    await input.close();
  });

  it('reads rows as arrays with another delimiter and no header', async () => {
    const path = csvFile('b.csv', 'a;b\nc;d\n');
    const input = await inputOf(`csv:\n  paths: [ ${path} ]\n  parse_header_row: false\n  delimiter: ';'\n`);
    const txns = await readN(input, 2);
    assert.deepEqual(
      txns.map((t) => t.batch[0]!.structured()),
      [
        ['a', 'b'],
        ['c', 'd'],
      ],
    );
    assert.equal(txns[0]!.batch[0]!.getMeta('header'), undefined);
    for (const t of txns) await t.ack(null);
    await input.close();
  });

  it('groups batch_count rows per batch', async () => {
    const path = csvFile('c.csv', 'n\n1\n2\n3\n');
    const input = await inputOf(`csv:\n  paths: [ ${path} ]\n  batch_count: 2\n`);
    const sizes: number[] = [];
    for (;;) {
      const txn = await input.read();
      if (!txn) break;
      sizes.push(txn.batch.length);
      await txn.ack(null);
    }
    assert.deepEqual(sizes, [2, 1]);
    await input.close();
  });

  it('deletes the file only once every row is acked', async () => {
    const path = csvFile('d.csv', 'n\n1\n2\n');
    const input = await inputOf(`csv:\n  paths: [ ${path} ]\n  delete_on_finish: true\n`);
    const [one, two] = await readN(input, 2);
    const end = input.read();
    await one!.ack(null);
    assert.ok(existsSync(path));
    await two!.ack(null);
    assert.equal(await end, null);
    assert.equal(existsSync(path), false);
    await input.close();
  });

  it('lints a delimiter of more than one character', () => {
    assert.deepEqual(
      lintYaml("input:\n  csv:\n    paths: [ x.csv ]\n    delimiter: ';;'\noutput:\n  drop: {}\n"),
      ['delimiter must be exactly one character'],
    );
  });
});
