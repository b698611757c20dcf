import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseInterpolation } from '../../../src/bloblang/index.js';
import { parseOutputCodec } from '../../../src/components/outputs/codec.js';
import { FileWriter } from '../../../src/components/outputs/file.js';
import { Message } from '../../../src/message/message.js';

describe('file output with a path it can never open', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nekton-file-paths-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('fails a batch with a NUL in one path before writing any of it, then writes the next batch', async () => {
    // The path is the content, so one batch spreads over three files.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation, not a JS template
    const writer = new FileWriter(parseInterpolation('${! content().string() }'), parseOutputCodec('lines'));
    const batch = [join(dir, 'ok-1'), join(dir, 'bad\u0000name'), join(dir, 'ok-3')].map(
      (p) => new Message(p),
    );
    await assert.rejects(writer.write(batch), /message 1: the path holds a NUL character/);
    assert.deepEqual(
      await readdir(dir),
      [],
      'nothing of the failed batch was written (a retry would repeat it)',
    );
    await writer.write([new Message(join(dir, 'ok-4'))]);
    await writer.close();
    assert.equal(await readFile(join(dir, 'ok-4'), 'utf8'), `${join(dir, 'ok-4')}\n`);
  });
});
