import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { HttpServer } from '../../src/http/server.js';
import { send, startServer } from './support.js';

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('TLS', { skip: hasOpenssl() ? false : 'openssl is not installed' }, () => {
  let dir: string;
  let server: HttpServer;
  let cert: Buffer;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'nekton-tls-'));
    const certFile = join(dir, 'cert.pem');
    const keyFile = join(dir, 'key.pem');
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost'].concat([
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        keyFile,
        '-out',
        certFile,
      ]),
      { stdio: 'ignore' },
    );
    cert = readFileSync(certFile);
    server = await startServer({ config: { cert_file: certFile, key_file: keyFile } });
  });

  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves HTTPS when cert_file and key_file are set', async () => {
    assert.equal(server.isTls, true);
    const reply = await send(server, '/ping', { ca: cert });
    assert.equal(reply.status, 200);
    assert.equal(reply.body, 'pong');
  });

  it('refuses clients that do not trust the certificate', async () => {
    await assert.rejects(send(server, '/ping'), /self[- ]signed/i);
  });
});
