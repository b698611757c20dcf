// Watch mode applies every save and every delete (issue 17): repeated in-place writes, saves by
// rename (how vim and `sed -i` write), and `rm`, whether the directory or the file itself was named.
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { StreamsService } from '../../src/streams/service.js';
import { waitFor } from '../helpers/kit.js';
import { json, send, startService, tempDir } from './support.js';

const streamYaml = (mapping: string) =>
  `input:\n  generate:\n    mapping: '${mapping}'\noutput:\n  drop: {}\n`;

async function mappingOf(svc: StreamsService, id: string): Promise<string | null> {
  const r = await send(svc, 'GET', `/streams/${id}`);
  if (r.status !== 200) return null;
  return (json(r) as { config: { input: { generate: { mapping: string } } } }).config.input.generate.mapping;
}

function saveByRename(file: string, text: string): void {
  const temp = `${file}.swp`;
  writeFileSync(temp, text);
  renameSync(temp, file);
}

async function expectMapping(svc: StreamsService, id: string, mapping: string): Promise<void> {
  await waitFor(async () => (await mappingOf(svc, id)) === mapping, {
    message: `${id} to read ${mapping}`,
    timeoutMs: 5_000,
  });
}

async function expectGone(svc: StreamsService, id: string): Promise<void> {
  await waitFor(async () => (await send(svc, 'GET', `/streams/${id}`)).status === 404, {
    message: `${id} deleted`,
    timeoutMs: 5_000,
  });
}

describe('watch mode keeps up with every change', () => {
  it('a watched directory: saves by rename, in-place writes, a new subdirectory, and rm', async () => {
    const dir = tempDir();
    const file = join(dir, 'one.yaml');
    writeFileSync(file, streamYaml('root = deleted()'));
    const svc = await startService({ paths: [dir], watch: true, watchDebounceMs: 50 });
    try {
      for (let i = 0; i < 3; i++) {
        saveByRename(file, streamYaml(`root = ${i}`));
        await expectMapping(svc, 'one', `root = ${i}`);
      }
      for (let i = 3; i < 6; i++) {
        writeFileSync(file, streamYaml(`root = ${i}`));
        await expectMapping(svc, 'one', `root = ${i}`);
      }
      mkdirSync(join(dir, 'sub'));
      writeFileSync(join(dir, 'sub', 'two.yaml'), streamYaml('root = 1'));
      await expectMapping(svc, 'sub_two', 'root = 1');
      saveByRename(join(dir, 'sub', 'two.yaml'), streamYaml('root = 2'));
      await expectMapping(svc, 'sub_two', 'root = 2');
      rmSync(file);
      await expectGone(svc, 'one');
      rmSync(join(dir, 'sub', 'two.yaml'));
      await expectGone(svc, 'sub_two');
    } finally {
      await svc.stop();
    }
  });

  it('a file named on the command line: repeated saves, then rm deletes its stream', async () => {
    const dir = tempDir();
    const file = join(dir, 'named.yaml');
    writeFileSync(file, streamYaml('root = deleted()'));
    const svc = await startService({ paths: [file], watch: true, watchDebounceMs: 50 });
    try {
      for (let i = 0; i < 3; i++) {
        saveByRename(file, streamYaml(`root = ${i}`));
        await expectMapping(svc, 'named', `root = ${i}`);
      }
      rmSync(file);
      await expectGone(svc, 'named');
      writeFileSync(file, streamYaml('root = "back"'));
      await expectMapping(svc, 'named', 'root = "back"');
      assert.equal((await send(svc, 'GET', '/streams/named')).status, 200);
    } finally {
      await svc.stop();
    }
  });
});
