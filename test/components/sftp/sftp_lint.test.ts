// What the sftp components refuse at lint, naming the field at its line; what `echo`-style reads
// scrub; and the pure parts: the reference's glob rules and known_hosts matching.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { registry } from '../../../src/components/registry.js';
import { knownKeysFor } from '../../../src/components/sftp/known_hosts.js';
import { segmentMatcher } from '../../../src/components/sftp/remote_glob.js';
import { bloblangChecker } from '../../../src/config/bloblang_check.js';
import { formatApiLint } from '../../../src/config/lint.js';
import { lintStreamConfig } from '../../../src/config/lint_config.js';
import { schemaProvider } from '../../../src/config/schema.js';
import { scrubServiceConfig } from '../../../src/config/scrub.js';
import { parseYaml, yamlToValue } from '../../../src/config/yaml_document.js';

const provider = schemaProvider(registry);
const lint = (text: string) =>
  lintStreamConfig(parseYaml(text), { provider, bloblang: bloblangChecker }).map(formatApiLint);

const HOST_KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGGyBO2mFw5eQshL1swC6q99PvEJTeICAnnSVdjCaDxI example';

describe('sftp lint', () => {
  it('accepts a complete input and output', () => {
    assert.deepEqual(
      lint(`input:
  sftp:
    address: 127.0.0.1:22
    credentials:
      username: u
      private_key_file: ./key
      host_public_key: ${HOST_KEY}
    paths: [ /in/*.txt ]
output:
  sftp:
    address: 127.0.0.1:22
    credentials:
      username: u
      password: p
    path: /out/x
    codec: lines
`),
      [],
    );
  });

  it('refuses both key forms, no login method, an address without a port and a malformed host key', () => {
    assert.deepEqual(
      lint(`input:
  sftp:
    address: sftp.example.com
    credentials:
      username: u
      host_public_key: ${HOST_KEY}
      host_public_key_file: ./host.pub
    paths: [ /in ]
output:
  drop: {}
`),
      [
        "(3,1) address: expected host:port, got 'sftp.example.com'",
        "(3,1) both host_public_key and host_public_key_file can't be set simultaneously",
        '(3,1) credentials: at least one authentication method must be provided (password, private_key or private_key_file)',
      ],
    );
    assert.deepEqual(
      lint(`input:
  generate:
    mapping: 'root = 1'
output:
  sftp:
    address: h:22
    credentials:
      private_key: k
      private_key_file: ./k
      host_public_key: ssh-ed25519 notbase64!
    path: /x
    codec: 'delim:'
`),
      [
        "(6,1) both private_key and private_key_file can't be set simultaneously",
        '(6,1) credentials.host_public_key: not a public key line such as `ssh-ed25519 AAAA... comment`',
        '(6,1) codec delim: needs a non-empty delimiter, e.g. delim:\\t',
      ],
    );
  });

  it('refuses a watcher without a cache, and a field the reference does not have', () => {
    const config = (extra: string) => `input:
  sftp:
    address: h:22
    credentials:
      password: p
    paths: [ /in ]
    watcher:
      enabled: true
${extra}output:
  drop: {}
`;
    assert.deepEqual(lint(config('')), [
      '(3,1) watcher.cache: a cache resource is required when watcher.enabled is true',
    ]);
    assert.deepEqual(lint(config('      cache: seen\n    poll_interval: 1s\n')), [
      '(10,1) field poll_interval not recognised',
    ]);
  });

  it('scrubs the password, the private key and its passphrase from config reads', () => {
    const config = yamlToValue(
      parseYaml(`input:
  sftp:
    address: h:22
    credentials:
      username: u
      password: hunter2-secret
      private_key: key-text-secret
      private_key_pass: pass-secret
    paths: [ /in ]
output:
  drop: {}
`),
    );
    const text = JSON.stringify(scrubServiceConfig(config as Record<string, unknown>, provider));
    for (const secret of ['hunter2-secret', 'key-text-secret', 'pass-secret'])
      assert.ok(!text.includes(secret), secret);
    assert.ok(text.includes('"username":"u"'));
  });
});

describe('sftp globs (the reference rules: Go path.Match per segment)', () => {
  it('matches *, ? and classes within one segment, and escapes', () => {
    const m = (p: string, name: string) => segmentMatcher(p).test(name);
    assert.equal(m('*.txt', 'a.txt'), true);
    assert.equal(m('*.txt', '.hidden.txt'), true, 'a leading dot is not special');
    assert.equal(m('*.txt', 'a.txt.gz'), false);
    assert.equal(m('?.log', 'ab.log'), false);
    assert.equal(m('[a-c]1', 'b1'), true);
    assert.equal(m('[^a-c]1', 'b1'), false);
    assert.equal(m('[^a-c]1', 'd1'), true);
    assert.equal(m('\\*x', '*x'), true);
    assert.equal(m('\\*x', 'ax'), false);
    assert.equal(m('a.b', 'axb'), false, 'a dot is literal');
    assert.throws(() => segmentMatcher('[abc'), /syntax error in pattern/);
  });
});

describe('sftp known_hosts', () => {
  it('accepts the keys listed for [host]:port, plain or hashed, and never a revoked one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nekton-known-'));
    try {
      const file = join(dir, 'known_hosts');
      const keys = ['k1', 'k2', 'k3'].map((name) => {
        const path = join(dir, name);
        assert.equal(spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path]).status, 0);
        return readFileSync(`${path}.pub`, 'utf8').trim().split(' ').slice(0, 2).join(' ');
      });
      const blob = (k: string) => Buffer.from(k.split(' ')[1] as string, 'base64');
      writeFileSync(
        file,
        `[127.0.0.1]:2222 ${keys[0]}\nother.example,!127.0.0.1 ${keys[1]}\n[127.0.0.1]:2200 ${keys[2]}\n`,
      );
      // ssh-keygen -H hashes the host names the way OpenSSH writes them with HashKnownHosts.
      assert.equal(spawnSync('ssh-keygen', ['-H', '-f', file]).status, 0);
      const hashed = readFileSync(file, 'utf8');
      assert.match(hashed, /^\|1\|/);
      const known = knownKeysFor(hashed, '127.0.0.1', 2222);
      assert.deepEqual(
        known.accepted.map((k) => k.toString('base64')),
        [blob(keys[0] as string).toString('base64')],
      );
      const plain = knownKeysFor(
        `127.0.0.1 ${keys[1]}\n*.example.com ${keys[2]}\n@revoked * ${keys[0]}\n`,
        '127.0.0.1',
        22,
      );
      assert.equal(plain.accepted.length, 1);
      assert.ok(plain.accepted[0]?.equals(blob(keys[1] as string)));
      assert.ok(plain.revoked[0]?.equals(blob(keys[0] as string)));
      assert.equal(
        knownKeysFor(`!127.0.0.1,127.* ${keys[1]}\n`, '127.0.0.1', 22).accepted.length,
        0,
        'negated',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
