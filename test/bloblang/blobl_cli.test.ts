import assert from 'node:assert/strict';
import { PassThrough, Readable } from 'node:stream';
import { test } from 'node:test';
import { runBlobl } from '../../src/cli/blobl.js';

async function blobl(mapping: string, input: string) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => {
    out += d;
  });
  stderr.on('data', (d) => {
    err += d;
  });
  const code = await runBlobl({ mapping }, { stdin: Readable.from([input]), stdout, stderr });
  return { code, out, err };
}

test('one result line per input line', async () => {
  const r = await blobl(
    'root = if this.drop == true { deleted() } else { this.a }',
    '{"a":"x"}\n{"a":{"b":1}}\n{"drop":true}\n',
  );
  assert.equal(r.code, 0);
  assert.equal(r.out, 'x\n{"b":1}\n\n');
});

test('failures go to stderr and set a non-zero exit code', async () => {
  const r = await blobl('root = this.a + 1', '{"a":1}\n{"a":"x"}\n');
  assert.equal(r.code, 1);
  assert.equal(r.out, '2\n');
  assert.match(r.err, /failed assignment \(line 1\): cannot add types string/);
});

test('a mapping that does not parse exits 1', async () => {
  const r = await blobl('root = ', '');
  assert.equal(r.code, 1);
  assert.match(r.err, /expected query/);
});
