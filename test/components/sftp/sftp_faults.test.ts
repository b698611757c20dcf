// The sftp components when things go wrong: the server killed and started again under a reading
// input and a writing output (reconnect, nothing lost), refused logins, a wrong host key, a
// closed port and an unparsable key, each reported naming the field to fix and never a secret.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { closedPort } from '../../helpers/ports.js';
import { requireSftp, SftpServer } from '../../helpers/sftp_server.js';
import { waitFor } from '../../helpers/wait.js';
import { type SftpStream, startStream } from './harness.js';

describe('sftp faults', () => {
  let server: SftpServer | null = null;

  before(async () => {
    server = await SftpServer.start();
  });

  after(async () => {
    await server?.dispose();
  });

  it('input: the server killed mid-read is reported on /ready; after its restart every line is delivered', async (t) => {
    const s = requireSftp(t, server);
    if (!s) return;
    mkdirSync(s.path('outage'), { recursive: true });
    for (const f of ['a', 'b', 'c'])
      writeFileSync(
        s.path('outage', `${f}.txt`),
        Array.from({ length: 40 }, (_, i) => `${f}${i}\n`).join(''),
      );
    let run: SftpStream | null = null;
    try {
      run = await startStream(`input:
  sftp:
${s.connection()}
    paths: [ '${s.path('outage', '*.txt')}' ]
    scanner:
      lines: {}
pipeline:
  processors:
    - sleep:
        duration: 10ms
output:
  capture: {}
`);
      const r = run;
      await waitFor(() => r.capture.messages.length >= 10, { message: 'the first lines', timeoutMs: 15_000 });
      await s.kill();
      const down = await waitFor(() => r.errorOf('input'), {
        message: 'the outage reported',
        timeoutMs: 15_000,
      });
      assert.match(down ?? '', new RegExp(`${s.address.replace(/\./g, '\\.')}|connection`));
      assert.equal(r.stream.isReady(), false, '/ready says not connected');
      await s.restart();
      await waitFor(() => !r.stream.active, { message: 'the input to end', timeoutMs: 30_000 });
      const got = new Set(r.capture.texts());
      for (const f of ['a', 'b', 'c'])
        for (let i = 0; i < 40; i++) assert.ok(got.has(`${f}${i}`), `${f}${i} delivered`);
    } finally {
      await s.restart().catch(() => undefined);
      await run?.stop();
    }
  });

  it('output: the server killed while writing; the output reconnects and every message is in the file', async (t) => {
    const s = requireSftp(t, server);
    if (!s) return;
    let run: SftpStream | null = null;
    try {
      run = await startStream(`input:
  generate:
    count: 300
    interval: 5ms
    mapping: 'root = "n" + counter().string()'
output:
  sftp:
${s.connection()}
    path: ${s.path('written', 'all.txt')}
    codec: lines
    max_in_flight: 1
`);
      const r = run;
      const lines = () => {
        try {
          return readFileSync(s.path('written', 'all.txt'), 'utf8').split('\n').filter(Boolean);
        } catch {
          return [];
        }
      };
      await waitFor(() => lines().length >= 30, { message: 'the first lines written', timeoutMs: 15_000 });
      await s.kill();
      await waitFor(() => r.errorOf('output'), { message: 'the outage reported', timeoutMs: 15_000 });
      assert.equal(r.stream.isReady(), false);
      await s.restart();
      await waitFor(() => !r.stream.active, { message: 'every message written', timeoutMs: 60_000 });
      const got = new Set(lines());
      for (let i = 1; i <= 300; i++) assert.ok(got.has(`n${i}`), `n${i} written`);
    } finally {
      await s.restart().catch(() => undefined);
      await run?.stop();
    }
  });

  it('a refused login, a wrong host key and a closed port are reported naming what to fix, never the secret', async (t) => {
    const s = requireSftp(t, server);
    if (!s) return;
    const password = 'not-the-password-7731';
    const strangerKey = readFileSync(s.hostKeyFile, 'utf8'); // a valid key the server does not authorise
    const indent = (text: string, by: string) => text.replace(/\n/g, `\n${by}`);
    const loginRefused = await startStream(`input:
  sftp:
    address: ${s.address}
    credentials:
      username: ${s.user}
      password: ${password}
      private_key: |
        ${indent(strangerKey.trim(), '        ')}
      host_public_key_file: ${s.hostKeyFile}.pub
    paths: [ /x ]
output:
  capture: {}
`);
    const wrongHost = await startStream(`output:
  sftp:
    address: ${s.address}
    credentials:
      username: ${s.user}
      private_key_file: ${s.clientKeyFile}
      host_public_key: ${readFileSync(`${s.clientKeyFile}.pub`, 'utf8').trim()}
    path: /tmp/never
input:
  generate:
    count: 1
    mapping: 'root = "x"'
`);
    const port = await closedPort();
    const closed = await startStream(`input:
  sftp:
    address: 127.0.0.1:${port}
    credentials:
      username: ${s.user}
      private_key_file: ${s.clientKeyFile}
      host_public_key_file: ${s.hostKeyFile}.pub
    paths: [ /x ]
output:
  capture: {}
`);
    try {
      const refused = await waitFor(() => loginRefused.errorOf('input'), {
        message: 'login refused',
        timeoutMs: 15_000,
      });
      assert.match(
        refused ?? '',
        /refused the login of user '.*' \(check credentials\.username, credentials\.password, credentials\.private_key\)/,
      );
      assert.ok(!(refused ?? '').includes(password), 'the password is not in the error');
      assert.ok(!(refused ?? '').includes('PRIVATE KEY'), 'the key is not in the error');
      const host = await waitFor(() => wrongHost.errorOf('output'), {
        message: 'host key refused',
        timeoutMs: 15_000,
      });
      assert.match(
        host ?? '',
        /host key of the server at 127\.0\.0\.1:\d+ does not match credentials\.host_public_key$/,
      );
      const unreachable = await waitFor(() => closed.errorOf('input'), {
        message: 'refused',
        timeoutMs: 15_000,
      });
      assert.match(unreachable ?? '', new RegExp(`cannot reach 127\\.0\\.0\\.1:${port}: connection refused`));
      for (const run of [loginRefused, wrongHost, closed]) assert.equal(run.stream.isReady(), false);
      assert.equal(loginRefused.capture.messages.length + closed.capture.messages.length, 0);
    } finally {
      await loginRefused.stop();
      await wrongHost.stop();
      await closed.stop();
    }
  });

  it('a private key that cannot be parsed or a missing key file fails the build naming the field', async (t) => {
    const s = requireSftp(t, server);
    if (!s) return;
    const garbage = 'not-a-key-4471';
    await assert.rejects(
      startStream(`input:
  sftp:
    address: ${s.address}
    credentials:
      username: ${s.user}
      private_key: ${garbage}
      host_public_key_file: ${s.hostKeyFile}.pub
    paths: [ /x ]
output:
  capture: {}
`),
      (err: Error) => {
        assert.match(err.message, /credentials\.private_key: cannot parse the private key/);
        assert.ok(!err.message.includes(garbage), 'the key text is not in the error');
        return true;
      },
    );
    await assert.rejects(
      startStream(`input:
  sftp:
    address: ${s.address}
    credentials:
      username: ${s.user}
      private_key_file: ${s.path('no-such-key')}
      host_public_key_file: ${s.hostKeyFile}.pub
    paths: [ /x ]
output:
  capture: {}
`),
      /credentials\.private_key_file: cannot read .*no-such-key/,
    );
  });
});
