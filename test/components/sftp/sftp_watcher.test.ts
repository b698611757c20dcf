// The sftp input's watcher against a private OpenSSH server: new files picked up once each,
// files younger than minimum_age left for later, and the cache resource's marks (`@` done: never
// again; `!` pending from an earlier run: taken up on the first poll).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { requireSftp, SftpServer } from '../../helpers/sftp_server.js';
import { waitFor } from '../../helpers/wait.js';
import { startStream } from './harness.js';

/** Waits for `ms` of wall-clock time: here, a few poll intervals in which nothing more may arrive. */
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('sftp watcher', () => {
  let server: SftpServer | null = null;

  before(async () => {
    server = await SftpServer.start();
  });

  after(async () => {
    await server?.dispose();
  });

  it('picks up each new file once, skips files marked done, re-reads files left pending', async (t) => {
    const s = requireSftp(t, server);
    if (!s) return;
    mkdirSync(s.path('watch'), { recursive: true });
    writeFileSync(s.path('watch', 'done.txt'), 'already consumed\n');
    writeFileSync(s.path('watch', 'pending.txt'), 'left pending\n');
    writeFileSync(s.path('watch', 'first.txt'), 'first\n');
    const run = await startStream(`input:
  sftp:
${s.connection()}
    paths: [ '${s.path('watch', '*.txt')}' ]
    scanner:
      lines: {}
    watcher:
      enabled: true
      minimum_age: 0s
      poll_interval: 50ms
      cache: seen
cache_resources:
  - label: seen
    memory:
      init_values:
        '${s.path('watch', 'done.txt')}': '@'
        '${s.path('watch', 'pending.txt')}': '!'
output:
  capture: {}
`);
    try {
      await waitFor(() => run.capture.messages.length >= 2, {
        message: 'the first files',
        timeoutMs: 15_000,
      });
      writeFileSync(s.path('watch', 'second.txt'), 'second\n');
      await waitFor(() => run.capture.texts().includes('second'), {
        message: 'the new file',
        timeoutMs: 15_000,
      });
      await pause(400);
      assert.deepEqual(run.capture.texts().sort(), ['first', 'left pending', 'second'], 'each file once');
      assert.equal(run.stream.active, true, 'a watching input does not end');
    } finally {
      await run.stop();
    }
  });

  it('leaves a file younger than minimum_age until it is old enough; deletes consumed files with delete_on_finish', async (t) => {
    const s = requireSftp(t, server);
    if (!s) return;
    mkdirSync(s.path('aged'), { recursive: true });
    writeFileSync(s.path('aged', 'old.txt'), 'old\n');
    writeFileSync(s.path('aged', 'young.txt'), 'young\n');
    const hourAgo = Date.now() / 1000 - 3600;
    utimesSync(s.path('aged', 'old.txt'), hourAgo, hourAgo);
    const run = await startStream(`input:
  sftp:
${s.connection()}
    paths: [ '${s.path('aged', '*.txt')}' ]
    delete_on_finish: true
    scanner:
      lines: {}
    watcher:
      enabled: true
      minimum_age: 10m
      poll_interval: 50ms
      cache: seen
cache_resources:
  - label: seen
    memory: {}
output:
  capture: {}
`);
    try {
      await waitFor(() => run.capture.messages.length >= 1, { message: 'the old file', timeoutMs: 15_000 });
      await pause(300);
      assert.deepEqual(run.capture.texts(), ['old'], 'the young file waits');
      utimesSync(s.path('aged', 'young.txt'), hourAgo, hourAgo);
      await waitFor(() => run.capture.texts().includes('young'), {
        message: 'the aged file',
        timeoutMs: 15_000,
      });
      await waitFor(
        () => !existsSync(s.path('aged', 'old.txt')) && !existsSync(s.path('aged', 'young.txt')),
        {
          message: 'both deleted once delivered',
          timeoutMs: 15_000,
        },
      );
    } finally {
      await run.stop();
    }
  });
});
