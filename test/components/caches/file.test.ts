import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type FileCache, spec } from '../../../src/components/caches/file.js';
import { createTestContext } from '../../helpers/context.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined) => (b === undefined ? undefined : new TextDecoder().decode(b));

describe('file cache', () => {
  let base: string;
  let dir: string;
  let cache: FileCache;

  before(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'nekton-file-cache-'));
    dir = path.join(base, 'items');
    cache = (await spec.build({ directory: dir }, createTestContext())) as FileCache;
  });
  after(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('stores each key as a file in the directory', async () => {
    await cache.set('alpha', bytes('one'));
    assert.equal(text(await cache.get('alpha')), 'one');
    assert.equal(await readFile(path.join(dir, 'alpha'), 'utf8'), 'one');
    assert.equal(await cache.get('missing'), undefined);
  });

  it('add only writes an absent key', async () => {
    assert.equal(await cache.add('beta', bytes('1')), true);
    assert.equal(await cache.add('beta', bytes('2')), false);
    assert.equal(text(await cache.get('beta')), '1');
  });

  it('accepts nested keys inside the directory', async () => {
    await cache.set('sub/key', bytes('nested'));
    assert.equal(await readFile(path.join(dir, 'sub', 'key'), 'utf8'), 'nested');
    await cache.set('..dots', bytes('fine'));
    assert.equal(text(await cache.get('..dots')), 'fine');
  });

  it('refuses keys that would escape the directory, for every operation', async () => {
    for (const key of [
      '../escape',
      'sub/../../escape',
      '/etc/passwd',
      path.join(base, 'escape'),
      '',
      '.',
      'a\0b',
    ]) {
      await assert.rejects(cache.set(key, bytes('x')), /leave the cache directory|invalid cache key/, key);
      await assert.rejects(cache.add(key, bytes('x')), /leave the cache directory|invalid cache key/, key);
      await assert.rejects(cache.get(key), /leave the cache directory|invalid cache key/, key);
      await assert.rejects(cache.delete(key), /leave the cache directory|invalid cache key/, key);
    }
    assert.deepEqual((await readdir(base)).sort(), ['items']);
  });

  it('deletes keys, and deleting a missing key is not an error', async () => {
    await cache.set('gamma', bytes('x'));
    await cache.delete('gamma');
    await cache.delete('gamma');
    assert.equal(await cache.get('gamma'), undefined);
  });
});
