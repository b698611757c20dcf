// OAuth 1.0a signing (`oauth`) of the HTTP client components, checked by a server that verifies
// each signature from RFC 5849's steps, and against the worked example of Twitter's docs.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { WebSocketServer } from 'ws';
import { oauth1Authorization } from '../../../src/components/http/auth/oauth1.js';
import { Message } from '../../../src/message/message.js';
import { buildComponents, close, oauth1Valid, recorder, type Seen } from './auth_support.js';
import { buildInput } from './support.js';

const CREDS = ` { enabled: true, consumer_key: ck-1, consumer_secret: 'cs secret+1', access_token: at-1, access_token_secret: ats-secret-2 }`;

const valid = (s: Seen) => oauth1Valid(s, 'cs secret+1', 'ats-secret-2');

describe('oauth (OAuth 1.0a) on the HTTP client components', () => {
  // Answers 401 unless the signature verifies, as a real provider would.
  const servers: Awaited<ReturnType<typeof recorder>>[] = [];
  const verifying = async () => {
    const r = await recorder((s) => ({ status: valid(s) ? 200 : 401, body: valid(s) ? 'signed ok' : 'bad' }));
    servers.push(r);
    return r;
  };
  after(async () => {
    for (const r of servers) await close(r.server);
  });

  it('matches the signature of the worked example in Twitter\'s "Creating a signature"', () => {
    const header = oauth1Authorization(
      {
        consumer_key: 'xvz1evFS4wEEPTGEFPHBog',
        consumer_secret: 'kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw',
        access_token: '370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb',
        access_token_secret: 'LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE',
      },
      {
        method: 'POST',
        url: new URL('https://api.twitter.com/1.1/statuses/update.json?include_entities=true'),
        form: 'status=Hello%20Ladies%20%2B%20Gentlemen%2C%20a%20signed%20OAuth%20request%21',
        nonce: 'kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg',
        timestamp: '1318622958',
      },
    );
    assert.match(header, /^OAuth oauth_consumer_key="xvz1evFS4wEEPTGEFPHBog", /);
    assert.match(header, / oauth_signature="hCtSmYh%2BiHYCEqBWrE7C7hYmtUk%3D", /);
  });

  it('http_client output: signs a form POST whose URL has a query, so the server accepts it', async () => {
    const { base, seen } = await verifying();
    const { output } = await buildComponents(`
output:
  http_client:
    url: '${base}/update?include_entities=true&q=a%20b'
    verb: POST
    headers: { Content-Type: application/x-www-form-urlencoded }
    retries: 0
    oauth:${CREDS}
`);
    await output.write([new Message('status=Hello%20there%21&z=1')]);
    await output.write([new Message('status=again')]);
    await output.close();
    assert.equal(seen.length, 2);
    assert.ok(seen.every(valid), 'both signatures verify');
    const nonces = seen.map((s) => /oauth_nonce="([^"]+)"/.exec(String(s.headers.authorization))?.[1]);
    assert.notEqual(nonces[0], nonces[1], 'each request gets its own nonce');
  });

  it('http_client output: a wrong secret is refused, and neither secret is in the error', async () => {
    const { base, seen } = await verifying();
    const { output } = await buildComponents(`
output:
  http_client:
    url: '${base}/update'
    retries: 0
    oauth:
      enabled: true
      consumer_key: ck-1
      consumer_secret: 'WRONG-consumer-secret'
      access_token: at-1
      access_token_secret: ats-secret-2
`);
    const err = await output.write([new Message('x')]).then(
      () => assert.fail('the write should fail'),
      (e: Error) => e,
    );
    await output.close();
    assert.match(err.message, /401/);
    assert.doesNotMatch(err.message, /WRONG-consumer-secret|ats-secret-2/);
    assert.equal(seen.length, 1);
    assert.equal(valid(seen[0] as Seen), false);
  });

  it('http processor: signs a GET with query parameters', async () => {
    const { base, seen } = await verifying();
    const { processors } = await buildComponents(`
pipeline:
  processors:
    - http:
        url: '${base}/items?b=2&a=1&a=0&c=\${! content() }'
        verb: GET
        oauth:${CREDS}
output:
  drop: {}
`);
    const [out] = await (processors[0] as NonNullable<(typeof processors)[0]>).process([new Message('x y~')]);
    assert.equal(out?.[0]?.text(), 'signed ok');
    assert.equal(seen.length, 1);
    assert.ok(valid(seen[0] as Seen));
    assert.equal(seen[0]?.url, '/items?b=2&a=1&a=0&c=x%20y~');
  });

  it('http_client input: each poll is signed', async () => {
    const { base, seen } = await verifying();
    const { input } = await buildInput(`
input:
  http_client:
    url: '${base}/feed?since=5'
    oauth:${CREDS}
output:
  drop: {}
`);
    const first = await input.read();
    const second = await input.read();
    assert.equal(first?.batch[0]?.text(), 'signed ok');
    assert.equal(second?.batch[0]?.text(), 'signed ok');
    await first?.ack(null);
    await second?.ack(null);
    await input.close();
    assert.ok(seen.length >= 2 && seen.every(valid));
  });

  it('websocket input: the handshake GET is signed', async () => {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((r) => wss.once('listening', r));
    const handshakes: Seen[] = [];
    wss.on('connection', (ws, req) => {
      handshakes.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: '' });
      ws.send('hello');
    });
    const { input } = await buildInput(`
input:
  websocket:
    url: ws://127.0.0.1:${(wss.address() as AddressInfo).port}/feed?topic=a
    oauth:${CREDS}
output:
  drop: {}
`);
    const txn = await input.read();
    assert.equal(txn?.batch[0]?.text(), 'hello');
    await txn?.ack(null);
    await input.close();
    for (const c of wss.clients) c.terminate();
    await new Promise((r) => wss.close(r));
    assert.equal(handshakes.length, 1);
    assert.ok(valid(handshakes[0] as Seen));
  });
});
