// `nekton -c` guesses from a config's text whether it asks for pipeline threads, to start one while
// the config is read (src/cli/thread_prestart.ts).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { asksForThreads, prestartThreadsFor } from '../../src/cli/thread_prestart.js';
import { spareThreadWaiting } from '../../src/engine/threads/spare_thread.js';
import { runNekton, tempDir } from '../helpers/cli.js';

describe('asking for pipeline threads, read from the text', () => {
  it('sees threads above one, -1 and 0 in YAML and JSON', () => {
    assert.equal(asksForThreads('pipeline:\n  threads: 2\n  processors: []\n'), true);
    assert.equal(asksForThreads('pipeline:\n  threads: -1\n'), true);
    assert.equal(asksForThreads('pipeline: { threads: 0 }'), true);
    assert.equal(asksForThreads('{"pipeline":{"threads":4,"processors":[]}}'), true);
    assert.equal(asksForThreads("pipeline:\n  'threads': '3'\n"), true);
  });

  it('does not see them where there is one thread, none, or a value only known later', () => {
    assert.equal(asksForThreads('pipeline:\n  threads: 1\n'), false);
    assert.equal(asksForThreads('input:\n  stdin: {}\noutput:\n  stdout: {}\n'), false);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: an environment variable in a config
    assert.equal(asksForThreads('pipeline:\n  threads: ${THREADS:4}\n'), false);
    // A field whose name only ends in "threads" is another field.
    assert.equal(asksForThreads('input:\n  x:\n    max_threads: 8\n'), false);
  });

  it('lets a -s override decide', () => {
    assert.equal(asksForThreads('pipeline:\n  threads: 4\n', ['pipeline.threads=1']), false);
    assert.equal(asksForThreads('pipeline:\n  threads: 1\n', ['pipeline.threads=2']), true);
    assert.equal(asksForThreads('pipeline:\n  threads: 4\n', ['logger.level=INFO']), true);
  });

  it('starts nothing for a config it cannot read; the run then says the file is missing', async () => {
    const missing = join(tempDir(), 'threads.yaml');
    prestartThreadsFor(missing, ['pipeline.threads=2']);
    assert.equal(spareThreadWaiting(), false);
    const result = await runNekton(['-c', missing, '-s', 'pipeline.threads=2']);
    assert.equal(result.code, 1);
    assert.equal(result.stderr, `${missing}: file not found\n`);
  });
});
