// TLS on the service-wide HTTP server of streams mode (`http.cert_file` / `http.key_file`), with a
// self-signed certificate made for the test: the API answers over HTTPS only, clients that do not
// trust the certificate are refused, and basic auth works on top of TLS.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { after, before, describe, it } from 'node:test';
import type { StreamsService } from '../../src/streams/service.js';
import { H_JSON, startService } from '../streams/support.js';
import { basicAuth, hasOpenssl, selfSignedCert } from './support.js';

interface HttpsReply {
  status: number;
  body: string;
}

function https(
  port: number,
  method: string,
  path: string,
  options: { ca?: Buffer; body?: string; headers?: Record<string, string> } = {},
): Promise<HttpsReply> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      { host: '127.0.0.1', port, method, path, ca: options.ca, headers: options.headers, agent: false },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('TLS on the streams-mode server', {
  skip: hasOpenssl() ? false : 'openssl is not installed',
}, () => {
  let service: StreamsService;
  let cert: Buffer;
  let port: number;

  before(async () => {
    const made = selfSignedCert();
    cert = made.cert;
    service = await startService({
      observabilityYaml: `http:
  address: 127.0.0.1:0
  cert_file: ${made.certFile}
  key_file: ${made.keyFile}
  basic_auth:
    enabled: true
    username: admin
    password_hash: K7gNU3sdo+OL0wNhqoVWhr3g6s1xYv72ol/pe/Unols=
    algorithm: sha256
logger:
  level: OFF
`,
    });
    port = service.http.port as number;
  });

  after(async () => {
    await service.stop();
  });

  it('serves the streams API over HTTPS to a client that trusts the certificate', async () => {
    const auth = basicAuth('admin', 'secret');
    const created = await https(port, 'POST', '/streams/tls', { ca: cert, body: H_JSON, headers: auth });
    assert.equal(created.status, 200, created.body);
    const list = await https(port, 'GET', '/streams', { ca: cert, headers: auth });
    assert.equal(list.status, 200);
    assert.ok('tls' in (JSON.parse(list.body) as object));
    const denied = await https(port, 'GET', '/streams', { ca: cert });
    assert.equal(denied.status, 401, 'basic auth still applies over TLS');
  });

  it('refuses clients that do not trust the certificate', async () => {
    await assert.rejects(https(port, 'GET', '/ping'), /self[- ]signed|certificate/i);
  });

  it('never answers plain HTTP on the TLS port', async () => {
    const outcome = await new Promise<string>((resolve) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/ping', agent: false }, (res) => {
        res.resume();
        resolve(`status ${res.statusCode}`);
      });
      req.on('error', (err) => resolve(`error ${err.message}`));
      req.setTimeout(5_000, () => {
        req.destroy();
        resolve('timeout');
      });
      req.end();
    });
    assert.ok(!outcome.startsWith('status 200'), `plain HTTP got ${outcome}`);
  });
});
