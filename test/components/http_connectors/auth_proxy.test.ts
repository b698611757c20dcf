// proxy_url: requests of the HTTP client components (and websocket handshakes) go through a local
// forward proxy that counts them: plain HTTP in absolute form, HTTPS and websockets by CONNECT.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { WebSocketServer } from 'ws';
import { Message } from '../../../src/message/message.js';
import { waitFor } from '../../helpers/kit.js';
import { selfSignedCert } from '../../security/support.js';
import { buildComponents, close, forwardProxy, recorder } from './auth_support.js';
import { buildInput } from './support.js';

describe('proxy_url on the HTTP client components and websockets', () => {
  let target: Awaited<ReturnType<typeof recorder>>;
  let https: HttpsServer;
  let httpsBase = '';
  const httpsSeen: string[] = [];
  before(async () => {
    target = await recorder((s) => ({ status: 200, body: `target saw ${s.method} ${s.url}` }));
    const { certFile, keyFile } = selfSignedCert();
    https = createHttpsServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, (req, res) => {
      httpsSeen.push(req.url ?? '');
      res.end('secure hello');
    });
    await new Promise<void>((r) => https.listen(0, '127.0.0.1', r));
    httpsBase = `https://127.0.0.1:${(https.address() as AddressInfo).port}`;
  });
  after(async () => {
    await close(target.server);
    https.closeAllConnections();
    await new Promise((r) => https.close(r));
  });

  it('http_client output: an http target is requested through the proxy', async () => {
    const proxy = await forwardProxy();
    const before = target.seen.length;
    const { output } = await buildComponents(`
output:
  http_client:
    url: ${target.base}/via-proxy
    retries: 0
    proxy_url: ${proxy.url}
`);
    await output.write([new Message('one')]);
    await output.write([new Message('two')]);
    await output.close();
    await proxy.close();
    assert.equal(proxy.counts.requests, 2);
    assert.deepEqual(
      target.seen.slice(before).map((s) => s.body),
      ['one', 'two'],
    );
  });

  it('http processor: an https target is reached through a CONNECT tunnel, with its tls settings', async () => {
    const proxy = await forwardProxy();
    const { processors } = await buildComponents(`
pipeline:
  processors:
    - http:
        url: ${httpsBase}/secure
        verb: GET
        proxy_url: ${proxy.url}
        tls: { enabled: true, skip_cert_verify: true }
output:
  drop: {}
`);
    const proc = processors[0];
    assert.ok(proc);
    const [out] = await proc.process([new Message('x')]);
    await proc.close();
    await proxy.close();
    assert.equal(out?.[0]?.text(), 'secure hello');
    assert.equal(proxy.counts.connects, 1);
    assert.equal(proxy.counts.requests, 0);
  });

  it('http_client input: a proxy that wants credentials gets them from proxy_url, and the password stays out of errors', async () => {
    const proxy = await forwardProxy({
      requireAuth: `Basic ${Buffer.from('pu:pw-secret').toString('base64')}`,
    });
    const { input } = await buildInput(`
input:
  http_client:
    url: ${target.base}/polled
    proxy_url: http://pu:pw-secret@${new URL(proxy.url).host}
output:
  drop: {}
`);
    const txn = await input.read();
    assert.equal(txn?.batch[0]?.text(), 'target saw GET /polled');
    await txn?.ack(null);
    await input.close();
    assert.equal(proxy.counts.requests >= 1, true);
    assert.equal(proxy.counts.refused, 0);

    const { output } = await buildComponents(`
output:
  http_client:
    url: ${target.base}/refused
    retries: 0
    proxy_url: http://pu:wrong-secret@${new URL(proxy.url).host}
`);
    const err = await output.write([new Message('x')]).then(
      () => assert.fail('a 407 fails the write'),
      (e: Error) => e,
    );
    await output.close();
    await proxy.close();
    assert.match(err.message, /407/);
    assert.doesNotMatch(err.message, /wrong-secret/);
  });

  it('websocket output: the connection is tunnelled through the proxy', async () => {
    const proxy = await forwardProxy();
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((r) => wss.once('listening', r));
    const frames: string[] = [];
    wss.on('connection', (ws) => ws.on('message', (d) => frames.push(String(d))));
    const { output } = await buildComponents(`
output:
  websocket:
    url: ws://127.0.0.1:${(wss.address() as AddressInfo).port}/ingest
    proxy_url: ${proxy.url}
`);
    await output.write([new Message('through the tunnel')]);
    await waitFor(() => frames.length > 0 || undefined, { message: 'the frame to arrive' });
    await output.close();
    for (const c of wss.clients) c.terminate();
    await new Promise((r) => wss.close(r));
    await proxy.close();
    assert.deepEqual(frames, ['through the tunnel']);
    assert.equal(proxy.counts.connects, 1);
  });
});
