// The subprocess output: each message a line on the program's stdin; closing lets it finish.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Message } from '../../../src/message/message.js';
import { waitFor } from '../../helpers/kit.js';
import { output } from '../bloblang_components/build.js';

describe('subprocess output', () => {
  it('writes every message of every batch as a line, in order', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nekton-subprocess-out-'));
    try {
      const file = join(dir, 'out.txt');
      const out = await output({ subprocess: { name: 'tee', args: ['-a', file] } });
      await out.write([new Message('one'), new Message('two')]);
      await out.write([new Message('three')]);
      await out.close();
      assert.equal(await readFile(file, 'utf8'), 'one\ntwo\nthree\n');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('starts the program again when it exits, and nothing written after is lost', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nekton-subprocess-out-'));
    try {
      const file = join(dir, 'out.txt');
      // Each run takes one line and exits.
      const out = await output({
        subprocess: { name: 'sh', args: ['-c', `read -r l; echo "$l" >> '${file}'`] },
      });
      await out.write([new Message('first')]);
      await waitFor(async () => (await readFile(file, 'utf8').catch(() => '')) === 'first\n');
      await out.write([new Message('second')]);
      await waitFor(async () => (await readFile(file, 'utf8')).includes('second'));
      await out.close();
      assert.equal(await readFile(file, 'utf8'), 'first\nsecond\n');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
