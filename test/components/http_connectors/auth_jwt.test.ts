// JWT bearer authentication (`jwt`): the token each request carries is verified with node:crypto
// against the public half of the key the component signed with.
import assert from 'node:assert/strict';
import { type KeyObject, verify } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { WebSocketServer } from 'ws';
import { Message } from '../../../src/message/message.js';
import { buildComponents, close, keyFile, recorder } from './auth_support.js';
import { buildInput } from './support.js';

const DIGESTS: Record<string, string | null> = {
  RS256: 'sha256',
  RS384: 'sha384',
  RS512: 'sha512',
  EdDSA: null,
};

/** The header and claims of a bearer token whose signature verifies with `publicKey`, else throws. */
function verified(authorization: unknown, publicKey: KeyObject) {
  const m = /^Bearer ([\w-]+)\.([\w-]+)\.([\w-]+)$/.exec(String(authorization));
  assert.ok(m, `a bearer JWT, got ${String(authorization)}`);
  const [, h, p, s] = m as unknown as [string, string, string, string];
  const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as Record<string, unknown>;
  const digest = DIGESTS[String(header.alg)];
  assert.ok(digest !== undefined, `known alg ${String(header.alg)}`);
  assert.ok(
    verify(digest, Buffer.from(`${h}.${p}`), publicKey, Buffer.from(s, 'base64url')),
    'signature verifies',
  );
  return { header, claims: JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown> };
}

describe('jwt on the HTTP client components and websockets', () => {
  const servers: { server: import('node:http').Server }[] = [];
  after(async () => {
    for (const s of servers) await close(s.server);
  });
  const resource = async () => {
    const r = await recorder();
    servers.push(r);
    return r;
  };

  it('http_client output: RS256 with claims and headers', async () => {
    const { file, publicKey } = keyFile('rsa');
    const r = await resource();
    const { output } = await buildComponents(`
output:
  http_client:
    url: ${r.base}/in
    jwt:
      enabled: true
      private_key_file: ${file}
      signing_method: RS256
      claims: { sub: nekton, aud: api, n: 3 }
      headers: { kid: key-1 }
`);
    await output.write([new Message('a')]);
    await output.close();
    const { header, claims } = verified(r.seen[0]?.headers.authorization, publicKey);
    assert.deepEqual(header, { typ: 'JWT', alg: 'RS256', kid: 'key-1' });
    assert.deepEqual(claims, { sub: 'nekton', aud: 'api', n: 3 });
  });

  it('http processor: EdDSA; a token signed by another key does not verify', async () => {
    const { file, publicKey } = keyFile('ed25519');
    const other = keyFile('ed25519');
    const r = await resource();
    const { processors } = await buildComponents(`
pipeline:
  processors:
    - http:
        url: ${r.base}/lookup
        jwt: { enabled: true, private_key_file: ${file}, signing_method: EdDSA, claims: { iss: me } }
output:
  drop: {}
`);
    const proc = processors[0];
    assert.ok(proc);
    await proc.process([new Message('x')]);
    await proc.close();
    assert.deepEqual(verified(r.seen[0]?.headers.authorization, publicKey).claims, { iss: 'me' });
    assert.throws(() => verified(r.seen[0]?.headers.authorization, other.publicKey), /signature verifies/);
  });

  it('http_client input: RS512', async () => {
    const { file, publicKey } = keyFile('rsa');
    const r = await resource();
    const { input } = await buildInput(`
input:
  http_client:
    url: ${r.base}/feed
    jwt: { enabled: true, private_key_file: ${file}, signing_method: RS512, claims: { sub: poller } }
output:
  drop: {}
`);
    const txn = await input.read();
    await txn?.ack(null);
    await input.close();
    const { header, claims } = verified(r.seen[0]?.headers.authorization, publicKey);
    assert.equal(header.alg, 'RS512');
    assert.deepEqual(claims, { sub: 'poller' });
  });

  it('websocket output: the handshake carries the token', async () => {
    const { file, publicKey } = keyFile('rsa');
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((r) => wss.once('listening', r));
    const handshakes: (string | undefined)[] = [];
    wss.on('connection', (_ws, req) => handshakes.push(req.headers.authorization));
    const { output } = await buildComponents(`
output:
  websocket:
    url: ws://127.0.0.1:${(wss.address() as AddressInfo).port}/ingest
    jwt: { enabled: true, private_key_file: ${file}, signing_method: RS384, claims: { sub: ws } }
`);
    await output.write([new Message('frame')]);
    await output.close();
    await new Promise((r) => wss.close(r));
    assert.equal(handshakes.length, 1);
    assert.deepEqual(verified(handshakes[0], publicKey).claims, { sub: 'ws' });
  });

  it('fails the build when the key does not fit the signing method, naming the field', async () => {
    const { file } = keyFile('ed25519');
    await assert.rejects(
      buildComponents(`
output:
  http_client:
    url: http://127.0.0.1:1/in
    jwt: { enabled: true, private_key_file: ${file}, signing_method: RS256 }
`),
      /jwt\.private_key_file: RS256 needs an rsa key, .* holds ed25519/,
    );
  });
});
