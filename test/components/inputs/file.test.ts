import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { spec } from '../../../src/components/inputs/file.js';
import type { Input } from '../../../src/engine/component.js';
import { createTestContext } from '../../helpers/context.js';
import { configOf } from '../reference.js';

async function drain(input: Input): Promise<{ text: string; path: unknown; modUnix: unknown }[]> {
  const out: { text: string; path: unknown; modUnix: unknown }[] = [];
  for (let txn = await input.read(); txn; txn = await input.read()) {
    for (const m of txn.batch)
      out.push({ text: m.text(), path: m.getMeta('path'), modUnix: m.getMeta('mod_time_unix') });
    await txn.ack(null);
  }
  return out;
}

describe('file input', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nekton-file-in-'));
    await mkdir(join(dir, 'sub'));
    await writeFile(join(dir, 'a.txt'), 'a1\na2\n');
    await writeFile(join(dir, 'sub', 'b.txt'), 'b1\r\nb2');
    await writeFile(join(dir, 'skip.log'), 'nope\n');
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('reads every line of every globbed file exactly once, with path and mod time metadata', async () => {
    const input = await spec.build(configOf(spec, { paths: [join(dir, '**/*.txt')] }), createTestContext());
    const got = await drain(input);
    await input.close();
    assert.deepEqual(
      got.map((g) => [g.text, g.path]),
      [
        ['a1', join(dir, 'a.txt')],
        ['a2', join(dir, 'a.txt')],
        ['b1', join(dir, 'sub', 'b.txt')],
        ['b2', join(dir, 'sub', 'b.txt')],
      ],
    );
    assert.equal(typeof got[0]?.modUnix, 'number');
    assert.ok(Math.abs((got[0]?.modUnix as number) - Date.now() / 1000) < 60);
  });

  it('skips a plain path that does not exist (reported once) and reads the next one', async () => {
    const missing = join(dir, 'missing.txt');
    const input = await spec.build(
      configOf(spec, { paths: [missing, join(dir, 'a.txt')] }),
      createTestContext(),
    );
    // Before, the missing file was retried every 100 ms forever and a.txt was never read.
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<'hung'>((resolve) => {
      timer = setTimeout(() => resolve('hung'), 10_000);
    });
    const got = await Promise.race([drain(input), hung]);
    clearTimeout(timer);
    await input.close();
    assert.notEqual(got, 'hung');
    assert.deepEqual(
      (got as { text: string }[]).map((g) => g.text),
      ['a1', 'a2'],
    );
  });

  it('honours the deprecated codec field', async () => {
    const input = await spec.build(
      configOf(spec, { paths: [join(dir, 'a.txt')], codec: 'all-bytes' }),
      createTestContext(),
    );
    assert.deepEqual(
      (await drain(input)).map((g) => g.text),
      ['a1\na2\n'],
    );
    await input.close();
  });

  it('deletes a file with delete_on_finish only after every message is acked', async () => {
    const path = join(dir, 'del.txt');
    await writeFile(path, 'x\ny\n');
    const input = await spec.build(
      configOf(spec, { paths: [path], delete_on_finish: true, auto_replay_nacks: false }),
      createTestContext(),
    );
    const first = await input.read();
    const second = await input.read();
    assert.ok(first && second);
    const end = input.read(); // the reader sees the end of the file
    await first.ack(null);
    await new Promise((r) => setTimeout(r, 20));
    assert.ok(existsSync(path), 'one message is still unacknowledged');
    await second.ack(null);
    assert.equal(await end, null);
    await input.close();
    assert.ok(!existsSync(path));
  });
});
