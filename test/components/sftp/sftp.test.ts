// The sftp input and output against a private OpenSSH server (Debian's openssh-server, started by
// the test on a free loopback port with generated keys): files written at interpolated paths,
// read back through scanners, delete_on_finish only after delivery, nacks replayed.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { Timestamp } from '../../../src/message/value.js';
import { requireSftp, SftpServer } from '../../helpers/sftp_server.js';
import { waitFor } from '../../helpers/wait.js';
import { startStream } from './harness.js';

describe('sftp input and output', () => {
  let server: SftpServer | null = null;

  before(async () => {
    server = await SftpServer.start();
  });

  after(async () => {
    await server?.dispose();
  });

  it('output: writes each message to its interpolated path (all-bytes replaces, lines appends), creating directories', async (t) => {
    const s = requireSftp(t, server);
    if (!s) return;
    const run = await startStream(`input:
  generate:
    count: 4
    interval: ''
    mapping: 'root = {"id": counter(), "team": if counter() % 2 == 0 { "even" } else { "odd" }}'
output:
  broker:
    outputs:
      - sftp:
${s.connection('          ')}
          path: '${s.root}/out/\${! json("team") }/msg-\${! json("id") }.json'
      - sftp:
${s.connection('          ')}
          path: '${s.root}/out/all-\${! json("team") }.ndjson'
          codec: lines
`);
    try {
      await waitFor(() => !run.stream.active, { message: 'the stream to end', timeoutMs: 15_000 });
      assert.equal(readFileSync(s.path('out', 'odd', 'msg-1.json'), 'utf8'), '{"id":1,"team":"odd"}');
      assert.equal(readFileSync(s.path('out', 'even', 'msg-4.json'), 'utf8'), '{"id":4,"team":"even"}');
      assert.equal(
        readFileSync(s.path('out', 'all-odd.ndjson'), 'utf8'),
        '{"id":1,"team":"odd"}\n{"id":3,"team":"odd"}\n',
      );
      assert.equal(
        readFileSync(s.path('out', 'all-even.ndjson'), 'utf8'),
        '{"id":2,"team":"even"}\n{"id":4,"team":"even"}\n',
      );
    } finally {
      await run.stop();
    }
  });

  it('output: lines appends after what a file already holds; all-bytes replaces it; delim:x delimits', async (t) => {
    const s = requireSftp(t, server);
    if (!s) return;
    mkdirSync(s.path('append'), { recursive: true });
    writeFileSync(s.path('append', 'log.txt'), 'before\n');
    writeFileSync(s.path('append', 'whole.txt'), 'old content that is longer than the new');
    const run = await startStream(`input:
  generate:
    count: 3
    interval: ''
    mapping: 'root = "m" + counter().string()'
output:
  broker:
    outputs:
      - sftp:
${s.connection('          ')}
          path: ${s.path('append', 'log.txt')}
          codec: lines
      - sftp:
${s.connection('          ')}
          path: ${s.path('append', 'whole.txt')}
      - sftp:
${s.connection('          ')}
          path: ${s.path('append', 'delim.txt')}
          codec: 'delim:|'
`);
    try {
      await waitFor(() => !run.stream.active, { message: 'the stream to end', timeoutMs: 15_000 });
      assert.equal(readFileSync(s.path('append', 'log.txt'), 'utf8'), 'before\nm1\nm2\nm3\n');
      assert.equal(
        readFileSync(s.path('append', 'whole.txt'), 'utf8'),
        'm3',
        'each message replaced the file',
      );
      assert.equal(readFileSync(s.path('append', 'delim.txt'), 'utf8'), 'm1|m2|m3|');
    } finally {
      await run.stop();
    }
  });

  it('output: a message whose path renders empty fails alone; the others are written', async (t) => {
    const s = requireSftp(t, server);
    if (!s) return;
    const run = await startStream(`input:
  generate:
    count: 6
    interval: ''
    mapping: |
      let n = counter()
      root = if $n % 3 == 0 { {"n": $n} } else { {"n": $n, "path": "${s.root}/paths/d" + $n.string() + "/f.json"} }
output:
  fallback:
    - sftp:
${s.connection('        ')}
        path: '\${! json("path").or("") }'
        max_in_flight: 8
    - capture: {}
`);
    try {
      await waitFor(() => !run.stream.active, { message: 'the stream to end', timeoutMs: 15_000 });
      assert.deepEqual(
        run.capture.texts().sort(),
        ['{"n":3}', '{"n":6}'],
        'the messages without a dir went to the fallback',
      );
      for (const n of [1, 2, 4, 5])
        assert.match(
          readFileSync(s.path('paths', `d${n}`, 'f.json'), 'utf8'),
          new RegExp(`^\\{"n":${n},"path":`),
        );
    } finally {
      await run.stop();
    }
  });

  it('input: reads the files a glob matches in order, with lines and to_the_end, and sets sftp_path and sftp_mod_time', async (t) => {
    const s = requireSftp(t, server);
    if (!s) return;
    mkdirSync(s.path('in'), { recursive: true });
    writeFileSync(s.path('in', 'b.log'), 'b1\nb2\n');
    writeFileSync(s.path('in', 'a.log'), 'a1\na2\na3');
    writeFileSync(s.path('in', 'c.txt'), 'not matched\n');
    utimesSync(s.path('in', 'a.log'), 1_700_000_000, 1_700_000_000);
    const lines = await startStream(`input:
  sftp:
${s.connection()}
    paths: [ '${s.path('in', '?.log')}' ]
    scanner:
      lines: {}
output:
  capture: {}
`);
    const whole = await startStream(`input:
  sftp:
${s.connection()}
    paths: [ '${s.path('in', '*.log')}', '${s.path('in', 'missing.txt')}' ]
output:
  capture: {}
`);
    try {
      await waitFor(() => !lines.stream.active && !whole.stream.active, {
        message: 'both inputs to end',
        timeoutMs: 15_000,
      });
      assert.deepEqual(lines.capture.texts(), ['a1', 'a2', 'a3', 'b1', 'b2']);
      assert.deepEqual(whole.capture.texts(), ['a1\na2\na3', 'b1\nb2\n'], 'to_the_end by default');
      const first = lines.capture.messages[0];
      assert.equal(first?.getMeta('sftp_path'), s.path('in', 'a.log'));
      const modTime = first?.getMeta('sftp_mod_time');
      assert.ok(modTime instanceof Timestamp, 'sftp_mod_time is a timestamp');
      assert.equal((modTime as Timestamp).epochNs, 1_700_000_000n * 1_000_000_000n);
      assert.equal(lines.capture.messages[4]?.getMeta('sftp_path'), s.path('in', 'b.log'));
      assert.ok(existsSync(s.path('in', 'a.log')), 'nothing deleted by default');
    } finally {
      await lines.stop();
      await whole.stop();
    }
  });

  it('input: delete_on_finish deletes a file only once every message was delivered; a nack is replayed', async (t) => {
    const s = requireSftp(t, server);
    if (!s) return;
    mkdirSync(s.path('del'), { recursive: true });
    writeFileSync(s.path('del', 'held.txt'), 'p\nq\n');
    writeFileSync(s.path('del', 'next.txt'), 'r\n');
    const run = await startStream(`input:
  sftp:
${s.connection()}
    paths: [ '${s.path('del', '*.txt')}' ]
    delete_on_finish: true
    scanner:
      lines: {}
output:
  capture: {}
`);
    let refuse = true;
    run.capture.failWhen = (m) => refuse && m.text() === 'q';
    try {
      await waitFor(() => run.capture.failures >= 2, { message: 'q refused twice', timeoutMs: 15_000 });
      assert.ok(existsSync(s.path('del', 'held.txt')), 'kept while q is undelivered');
      assert.ok(!run.capture.texts().includes('q'));
      refuse = false;
      await waitFor(() => !run.stream.active, { message: 'the input to end', timeoutMs: 15_000 });
      assert.deepEqual(run.capture.texts().sort(), ['p', 'q', 'r'], 'q delivered on the replay');
      assert.ok(!existsSync(s.path('del', 'held.txt')), 'deleted once q was delivered');
      assert.ok(!existsSync(s.path('del', 'next.txt')));
    } finally {
      await run.stop();
    }
  });

  it('round trip: what the output wrote the input reads back, and the input stops cleanly mid-file', async (t) => {
    const s = requireSftp(t, server);
    if (!s) return;
    const out = await startStream(`input:
  generate:
    count: 2000
    interval: ''
    mapping: 'root = "line " + counter().string()'
output:
  sftp:
${s.connection()}
    path: ${s.path('trip', 'data.txt')}
    codec: lines
`);
    await waitFor(() => !out.stream.active, { message: 'the writer to end', timeoutMs: 30_000 });
    await out.stop();
    const back = await startStream(`input:
  sftp:
${s.connection()}
    paths: [ ${s.path('trip', 'data.txt')} ]
    scanner:
      lines: {}
pipeline:
  processors:
    - sleep:
        duration: 1ms
output:
  capture: {}
`);
    await waitFor(() => back.capture.messages.length >= 10, {
      message: 'the first lines',
      timeoutMs: 15_000,
    });
    // Stopping mid-file ends the stream: nothing hangs on the open SFTP read.
    await back.stop();
    assert.equal(back.stream.active, false);
    const got = back.capture.texts();
    assert.ok(got.length < 2000, 'stopped before the end');
    assert.deepEqual(
      got,
      got.map((_, i) => `line ${i + 1}`),
    );
    const all = await startStream(`input:
  sftp:
${s.connection()}
    paths: [ ${s.path('trip', 'data.txt')} ]
    scanner:
      lines: {}
output:
  capture: {}
`);
    try {
      await waitFor(() => !all.stream.active, { message: 'the reader to end', timeoutMs: 30_000 });
      assert.equal(all.capture.messages.length, 2000);
      assert.equal(all.capture.messages[1999]?.text(), 'line 2000');
    } finally {
      await all.stop();
    }
  });
});
